package dev.stele.operator.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationRepositoryStatus;
import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.api.BackupStorageLocationServerSpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.ServerPhase;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.operator.kube.Operators;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.store.DefaultStoreFactory;
import dev.stele.testing.Await;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code bsls} against the API test server, one pass at a time: what the operator applies for it,
 * its certificate and fingerprint, users counted from the watched Secret, refusals, and what
 * deleting it leaves.
 */
class ServerReconcilerTest {
  static final String NS = "stele";
  static final String IMAGE = "registry.example/stele:test";
  static final String URL = "s3://bucket/velero/repositories/default";

  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();
  ServerReconciler reconciler;

  @BeforeEach
  void aReadyRepositoryAndItsUsers() {
    Clock clock = Clock.systemUTC();
    reconciler =
        new ServerReconciler(
            client, new Settings(clock, new DefaultStoreFactory(clock), null).withImage(IMAGE));
    var bsl = new BackupStorageLocation();
    bsl.setMetadata(meta("default"));
    bsl.setSpec(new BackupStorageLocationSpec());
    bsl.getSpec().provider = "s3";
    bsl.getSpec().objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    bsl.getSpec().objectStorage.bucket = "bucket";
    bsl.getSpec().objectStorage.prefix = "velero";
    bsl.getSpec().config =
        Map.of("s3Url", "https://rgw.example:7480", "region", "eu-1", "s3ForcePathStyle", "true");
    bsl.getSpec().credential = new SecretKeySelector("cloud", "cloud-credentials", false);
    client.resource(bsl).create();
    var bslr = new BackupStorageLocationRepository();
    bslr.setMetadata(meta("default"));
    bslr.setSpec(new BackupStorageLocationRepositorySpec());
    bslr.getSpec().backupStorageLocation = "default";
    bslr = client.resource(bslr).create();
    bslr.setStatus(new BackupStorageLocationRepositoryStatus());
    bslr.getStatus().phase = RepositoryPhase.READY;
    bslr.getStatus().url = URL;
    client.resource(bslr).updateStatus();
    secret("default-repository-password", Map.of("password", "pw"));
    secret("cloud-credentials", Map.of("cloud", "[default]\naws_access_key_id=a\n"));
    secret("server-users", Map.of("alice", "alice-password"));
  }

  @AfterEach
  void close() {
    client.close();
    server.close();
  }

  @Test
  void aServerGetsItsDeploymentServiceAccessAndCertificateAllOwnedByIt() throws Exception {
    var bsls = bsls("files", spec());
    bsls.getSpec().access = new BackupStorageLocationServerSpec.Access();
    bsls.getSpec().access.admins = List.of("alice");
    var rule = new BackupStorageLocationServerSpec.Rule();
    rule.users = List.of("bob");
    rule.access = "Read";
    rule.namespaces = List.of("shop");
    bsls.getSpec().access.rules = List.of(rule);
    var limit = new BackupStorageLocationServerSpec.Limit();
    limit.downloadBytesPerSecond = 1_000_000L;
    bsls.getSpec().access.limits = Map.of("bob", limit);
    String uid = client.resource(bsls).update().getMetadata().getUid();

    var status = pass("files");
    assertThat(status.phase).isEqualTo(ServerPhase.NOT_READY);
    assertThat(status.message)
        .isEqualTo("waiting for the server's Deployment files to have an available replica");
    assertThat(status.endpoint).isEqualTo("https://files.stele.svc:8443");
    assertThat(status.users).isEqualTo(1);

    Deployment d = deployment("files");
    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(c.getImage()).isEqualTo(IMAGE);
    assertThat(c.getArgs())
        .containsExactly(
            "server",
            "--repo",
            URL,
            "--password-file",
            "/etc/stele/password/password",
            "--endpoint",
            "https://rgw.example:7480",
            "--region",
            "eu-1",
            "--path-style",
            "--listen",
            "0.0.0.0:8443",
            "--tls-cert",
            "/etc/stele/tls/tls.crt",
            "--tls-key",
            "/etc/stele/tls/tls.key",
            "--users",
            "/etc/stele/users",
            "--access",
            "/etc/stele/access/access.json",
            "--resource",
            "stele/files");
    assertThat(c.getEnv())
        .anySatisfy(
            e -> {
              assertThat(e.getName()).isEqualTo("AWS_SHARED_CREDENTIALS_FILE");
              assertThat(e.getValue()).isEqualTo("/etc/stele/credentials/cloud");
            });
    Map<String, String> secretVolumes =
        d.getSpec().getTemplate().getSpec().getVolumes().stream()
            .filter(v -> v.getSecret() != null)
            .collect(Collectors.toMap(Volume::getName, v -> v.getSecret().getSecretName()));
    assertThat(secretVolumes)
        .containsEntry("tls", "files-tls")
        .containsEntry("users", "server-users")
        .containsEntry("password", "default-repository-password")
        .containsEntry("credentials", "cloud-credentials");
    Map<String, String> mounts =
        c.getVolumeMounts().stream()
            .collect(Collectors.toMap(VolumeMount::getName, VolumeMount::getMountPath));
    assertThat(mounts)
        .containsEntry("tls", "/etc/stele/tls")
        .containsEntry("users", "/etc/stele/users")
        .containsEntry("access", "/etc/stele/access");
    // Whole directories: a subPath mount would never see the kubelet's updates.
    assertThat(c.getVolumeMounts()).allSatisfy(m -> assertThat(m.getSubPath()).isNull());
    var probe = c.getReadinessProbe().getHttpGet();
    assertThat(probe.getPath()).isEqualTo("/healthz");
    assertThat(probe.getScheme()).isEqualTo("HTTPS");
    assertThat(probe.getPort().getStrVal()).isEqualTo("https");
    assertThat(c.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(d.getSpec().getReplicas()).isEqualTo(1);

    var svc = client.services().inNamespace(NS).withName("files").get();
    assertThat(svc.getSpec().getType()).isEqualTo("ClusterIP");
    assertThat(svc.getSpec().getPorts().get(0).getPort()).isEqualTo(8443);
    assertThat(svc.getSpec().getSelector())
        .isEqualTo(d.getSpec().getTemplate().getMetadata().getLabels());

    var access = client.configMaps().inNamespace(NS).withName("files-access").get();
    assertThat(new ObjectMapper().readTree(access.getData().get("access.json")))
        .isEqualTo(
            new ObjectMapper()
                .readTree(
                    "{\"admins\":[\"alice\"],\"rules\":[{\"users\":[\"bob\"],\"access\":\"Read\","
                        + "\"namespaces\":[\"shop\"]}],"
                        + "\"limits\":{\"bob\":{\"downloadBytesPerSecond\":1000000}}}"));

    for (HasMetadata owned : List.of(d, svc, access, tlsSecret("files"))) {
      assertThat(owned.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(
              o -> {
                assertThat(o.getKind()).isEqualTo("BackupStorageLocationServer");
                assertThat(o.getApiVersion()).isEqualTo("stele.dev/v1alpha1");
                assertThat(o.getName()).isEqualTo("files");
                assertThat(o.getUid()).isEqualTo(uid);
                assertThat(o.getController()).isTrue();
              });
    }

    available("files");
    status = pass("files");
    assertThat(status.phase).isEqualTo(ServerPhase.READY);
    assertThat(status.message).isEmpty();
    assertThat(events("files")).contains("Ready: serving at https://files.stele.svc:8443");
  }

  @Test
  void theServerRunsAsItsOwnAccountAllowedOnlyItsResourceAndEvents() {
    String uid = bsls("files", spec()).getMetadata().getUid();

    pass("files");

    var pod = deployment("files").getSpec().getTemplate().getSpec();
    assertThat(pod.getServiceAccountName()).isEqualTo("files");
    assertThat(pod.getAutomountServiceAccountToken()).isTrue();
    var account = client.serviceAccounts().inNamespace(NS).withName("files").get();
    assertThat(account.getAutomountServiceAccountToken()).isFalse();
    var role = client.rbac().roles().inNamespace(NS).withName("files").get();
    assertThat(role.getRules())
        .extracting(
            r ->
                r.getApiGroups()
                    + " "
                    + r.getResources()
                    + " "
                    + r.getResourceNames()
                    + " "
                    + r.getVerbs())
        .containsExactly(
            "[stele.dev] [backupstoragelocationservers] [files] [get]",
            "[] [events] [] [create, patch]",
            "[stele.dev] [podvolumerestores] [] [create, get, list]");
    var binding = client.rbac().roleBindings().inNamespace(NS).withName("files").get();
    assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
    assertThat(binding.getRoleRef().getName()).isEqualTo("files");
    assertThat(binding.getSubjects())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.getKind()).isEqualTo("ServiceAccount");
              assertThat(s.getName()).isEqualTo("files");
              assertThat(s.getNamespace()).isEqualTo(NS);
            });
    for (HasMetadata owned : List.of(account, role, binding)) {
      assertThat(owned.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(o -> assertThat(o.getUid()).isEqualTo(uid));
    }
  }

  @Test
  void theFingerprintIsTheSha256OfTheGeneratedCertificateWhichIsMadeOnce() throws Exception {
    bsls("files", spec());
    var status = pass("files");
    Secret tls = tlsSecret("files");
    assertThat(tls.getType()).isEqualTo("kubernetes.io/tls");
    X509Certificate cert = parse(decode(tls, "tls.crt"));
    String expected =
        "sha256:"
            + HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(cert.getEncoded()));
    assertThat(status.tlsFingerprint).isEqualTo(expected);
    assertThat(cert.getSubjectAlternativeNames())
        .extracting(n -> (Object) n.get(1))
        .contains("files.stele.svc", "files.stele.svc.cluster.local");
    assertThat(cert.getPublicKey().getAlgorithm()).isEqualTo("EC");
    assertThat(decode(tls, "tls.key")).startsWith("-----BEGIN PRIVATE KEY-----");

    assertThat(pass("files").tlsFingerprint).isEqualTo(expected);
    assertThat(tlsSecret("files").getData()).isEqualTo(tls.getData());
    assertThat(events("files")).filteredOn(e -> e.startsWith("CertificateGenerated")).hasSize(1);
  }

  @Test
  void aGivenTlsSecretIsServedAndNothingIsGenerated() throws Exception {
    var pem = Certificates.selfSigned(List.of("files.example.org"), Instant.now());
    secret("files-cert", Map.of("tls.crt", pem.certificate(), "tls.key", pem.key()));
    var spec = spec();
    spec.tls = new BackupStorageLocationServerSpec.Tls();
    spec.tls.secretRef = new LocalObjectReference("files-cert");
    bsls("files", spec);

    var status = pass("files");
    assertThat(status.tlsFingerprint)
        .isEqualTo(
            "sha256:"
                + HexFormat.of()
                    .formatHex(
                        MessageDigest.getInstance("SHA-256")
                            .digest(parse(pem.certificate()).getEncoded())));
    assertThat(tlsSecret("files")).isNull();
    assertThat(deployment("files").getSpec().getTemplate().getSpec().getVolumes())
        .filteredOn(v -> v.getName().equals("tls"))
        .singleElement()
        .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("files-cert"));
  }

  @Test
  void aUserAddedToTheSecretIsCountedWithoutTouchingThePods() {
    bsls("files", spec());
    pass("files");
    available("files");
    assertThat(pass("files").users).isEqualTo(1);
    PodTemplateSpec before = deployment("files").getSpec().getTemplate();

    Secret users = client.secrets().inNamespace(NS).withName("server-users").get();
    users.getData().put("bob", base64("$2b$10$abcdefghijklmnopqrstuv"));
    client.resource(users).update();
    // The Secret's watch queues the servers naming it, through this index key.
    assertThat(ServerReconciler.secrets(server("files"))).contains("server-users");

    var status = pass("files");
    assertThat(status.users).isEqualTo(2);
    assertThat(status.phase).isEqualTo(ServerPhase.READY);
    assertThat(deployment("files").getSpec().getTemplate()).isEqualTo(before);
  }

  /**
   * Under the framework, with an hour between rechecks: only the watches explain that the server
   * turns Ready when its Deployment becomes available, and counts a user added to its Secret.
   */
  @Test
  void theRunningReconcilerFollowsItsDeploymentAndUsersSecret() throws Exception {
    Clock clock = Clock.systemUTC();
    Settings hourly =
        new Settings(clock, new DefaultStoreFactory(clock), null, Duration.ofHours(1))
            .withImage(IMAGE);
    Operator operator =
        Operators.create(client, false, NS, List.of(new ServerReconciler(client, hourly)), null);
    Operators.start(operator, client);
    try {
      bsls("files", spec());
      Await.until("a Deployment", () -> deployment("files"), d -> d != null);
      Await.until(
          "NotReady",
          () -> server("files"),
          b -> b.getStatus() != null && b.getStatus().phase == ServerPhase.NOT_READY);
      available("files");
      Await.until("Ready", () -> server("files"), b -> b.getStatus().phase == ServerPhase.READY);

      Secret users = client.secrets().inNamespace(NS).withName("server-users").get();
      users.getData().put("bob", base64("bob-password"));
      client.resource(users).update();
      Await.until(
          "two users", () -> server("files"), b -> Integer.valueOf(2).equals(b.getStatus().users));

      // The certificate rotated (as cert-manager renews a given Secret): the watch on its Secret
      // brings the new fingerprint into status, and the pods are left to re-read their files.
      PodTemplateSpec before = deployment("files").getSpec().getTemplate();
      var pem = Certificates.selfSigned(List.of("files.stele.svc"), Instant.now());
      Secret tls = tlsSecret("files");
      tls.getData().put("tls.crt", base64(pem.certificate()));
      tls.getData().put("tls.key", base64(pem.key()));
      client.resource(tls).update();
      String renewed = fingerprint(pem.certificate());
      Await.until(
          "the new fingerprint",
          () -> server("files"),
          b -> renewed.equals(b.getStatus().tlsFingerprint));
      assertThat(deployment("files").getSpec().getTemplate()).isEqualTo(before);
      assertThat(events("files"))
          .contains(
              "CertificateChanged: Secret files-tls holds a new certificate, fingerprint "
                  + renewed);
    } finally {
      operator.stop();
    }
  }

  @Test
  void aMissingRepositoryOrUsersSecretLeavesItNotReadyWithAnEvent() {
    var spec = spec();
    spec.backupStorageLocationRepositoryRef = "nope";
    bsls("lost", spec);
    var status = pass("lost");
    assertThat(status.phase).isEqualTo(ServerPhase.NOT_READY);
    assertThat(status.message)
        .isEqualTo("BackupStorageLocationRepository nope does not exist in stele");
    assertThat(events("lost"))
        .containsExactly("NotReady: BackupStorageLocationRepository nope does not exist in stele");
    assertThat(deployment("lost")).isNull();

    spec = spec();
    spec.userSecretRef = new LocalObjectReference("nobody");
    bsls("lonely", spec);
    status = pass("lonely");
    assertThat(status.phase).isEqualTo(ServerPhase.NOT_READY);
    assertThat(status.message)
        .isEqualTo("Secret nobody named in spec.userSecretRef does not exist");
    assertThat(events("lonely"))
        .containsExactly("NotReady: Secret nobody named in spec.userSecretRef does not exist");
  }

  @Test
  void aRepositoryInAFilesystemLocationFailsWithOneLine() {
    var bsl =
        client.resources(BackupStorageLocation.class).inNamespace(NS).withName("default").get();
    bsl.getSpec().provider = "filesystem";
    bsl.getSpec().config = Map.of("path", "/backups");
    client.resource(bsl).update();
    bsls("files", spec());

    var status = pass("files");

    String line =
        "repository default is in a filesystem location: a server serves repositories in s3"
            + " locations only";
    assertThat(status.phase).isEqualTo(ServerPhase.FAILED);
    assertThat(status.message).isEqualTo(line);
    assertThat(events("files")).containsExactly("Failed: " + line);
    assertThat(deployment("files")).isNull();
  }

  @Test
  void aSpecThatCannotBeServedFails() {
    var spec = spec();
    spec.service = new BackupStorageLocationServerSpec.Service();
    spec.service.type = "ExternalName";
    bsls("odd", spec);
    var status = pass("odd");
    assertThat(status.phase).isEqualTo(ServerPhase.FAILED);
    assertThat(status.message)
        .isEqualTo(
            "spec.service.type ExternalName is not supported: use ClusterIP, NodePort or"
                + " LoadBalancer");
    assertThat(events("odd")).hasSize(1);
  }

  @Test
  void nothingOfTheRepositoryIsOwnedByTheServer() {
    var bsls = bsls("files", spec());
    pass("files");
    String uid = bsls.getMetadata().getUid();
    // The test server collects no garbage: what the collector would delete is what carries the
    // server's uid in its owner references — exactly what the operator made for it.
    List<HasMetadata> everything =
        List.<HasMetadata>of(
            client.resources(BackupStorageLocation.class).inNamespace(NS).withName("default").get(),
            client
                .resources(BackupStorageLocationRepository.class)
                .inNamespace(NS)
                .withName("default")
                .get());
    everything = new java.util.ArrayList<>(everything);
    everything.addAll(client.secrets().inNamespace(NS).list().getItems());
    everything.addAll(client.configMaps().inNamespace(NS).list().getItems());
    everything.addAll(client.services().inNamespace(NS).list().getItems());
    everything.addAll(client.apps().deployments().inNamespace(NS).list().getItems());
    assertThat(
            everything.stream()
                .filter(o -> ownedBy(o, uid))
                .map(o -> o.getKind() + "/" + o.getMetadata().getName()))
        .containsExactlyInAnyOrder(
            "Secret/files-tls", "ConfigMap/files-access", "Service/files", "Deployment/files");

    client.resource(bsls).delete();
    assertThat(
            client
                .resources(BackupStorageLocationRepository.class)
                .inNamespace(NS)
                .withName("default")
                .get())
        .isNotNull();
    assertThat(client.secrets().inNamespace(NS).withName("server-users").get()).isNotNull();
    assertThat(client.secrets().inNamespace(NS).withName("default-repository-password").get())
        .isNotNull();
  }

  private static boolean ownedBy(HasMetadata o, String uid) {
    List<OwnerReference> refs = o.getMetadata().getOwnerReferences();
    return refs != null && refs.stream().anyMatch(r -> uid.equals(r.getUid()));
  }

  private BackupStorageLocationServerSpec spec() {
    var spec = new BackupStorageLocationServerSpec();
    spec.backupStorageLocationRepositoryRef = "default";
    spec.userSecretRef = new LocalObjectReference("server-users");
    return spec;
  }

  private BackupStorageLocationServer bsls(String name, BackupStorageLocationServerSpec spec) {
    var bsls = new BackupStorageLocationServer();
    bsls.setMetadata(meta(name));
    bsls.setSpec(spec);
    return client.resource(bsls).create();
  }

  private BackupStorageLocationServer server(String name) {
    return client.resources(BackupStorageLocationServer.class).inNamespace(NS).withName(name).get();
  }

  private dev.stele.k8s.api.BackupStorageLocationServerStatus pass(String name) {
    reconciler.reconcile(server(name));
    return server(name).getStatus();
  }

  private Deployment deployment(String name) {
    return client.apps().deployments().inNamespace(NS).withName(name).get();
  }

  /** What the Deployment controller would report once a pod passes its readiness probe. */
  private void available(String name) {
    Deployment d = deployment(name);
    d.setStatus(new DeploymentStatusBuilder().withAvailableReplicas(1).withReplicas(1).build());
    client.resource(d).updateStatus();
  }

  private Secret tlsSecret(String server) {
    return client.secrets().inNamespace(NS).withName(server + "-tls").get();
  }

  private void secret(String name, Map<String, String> values) {
    var data =
        values.entrySet().stream()
            .collect(Collectors.toMap(Map.Entry::getKey, e -> base64(e.getValue())));
    client.resource(new SecretBuilder().withMetadata(meta(name)).withData(data).build()).create();
  }

  /** The Events about {@code name}, as {@code reason: message}, oldest first. */
  private List<String> events(String name) {
    return client.v1().events().inNamespace(NS).list().getItems().stream()
        .filter(e -> e.getInvolvedObject().getName().equals(name))
        .map(e -> e.getReason() + ": " + e.getMessage())
        .toList();
  }

  private static io.fabric8.kubernetes.api.model.ObjectMeta meta(String name) {
    return new ObjectMetaBuilder().withName(name).withNamespace(NS).build();
  }

  private static String base64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String decode(Secret s, String key) {
    return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
  }

  private static String fingerprint(String pem) throws Exception {
    return "sha256:"
        + HexFormat.of()
            .formatHex(MessageDigest.getInstance("SHA-256").digest(parse(pem).getEncoded()));
  }

  private static X509Certificate parse(String pem) throws Exception {
    return (X509Certificate)
        CertificateFactory.getInstance("X.509")
            .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }
}
