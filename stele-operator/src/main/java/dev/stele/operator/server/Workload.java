package dev.stele.operator.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.api.BackupStorageLocationServerSpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.KeyToPathBuilder;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What the operator applies for one server, all owned by it: the ConfigMap {@code <name>-access}
 * (key {@code access.json}, the spec's {@code access}), the Deployment {@code <name>} running
 * {@code stele server}, and the Service {@code <name>}. Built from the spec alone, so that the same
 * spec gives the same pod template and nothing but a spec change restarts the server: the users
 * Secret, the access rules and the certificate are mounted as volumes, whose files the kubelet
 * updates in place.
 */
final class Workload {
  static final String CONTAINER = "server";
  static final int CONTAINER_PORT = 8443;
  static final String TLS_DIR = "/etc/stele/tls";
  static final String USERS_DIR = "/etc/stele/users";
  static final String ACCESS_FILE = "/etc/stele/access/access.json";
  static final String PASSWORD_DIR = "/etc/stele/password";
  static final String CREDENTIALS_DIR = "/etc/stele/credentials";
  static final String CA_DIR = "/etc/stele/ca";

  /** The non-root user of Stele's image (deploy/image/Containerfile). */
  static final long USER = 10001;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final BackupStorageLocationServer bsls;
  private final String name;
  private final String namespace;

  Workload(BackupStorageLocationServer bsls) {
    this.bsls = bsls;
    this.name = bsls.getMetadata().getName();
    this.namespace = bsls.getMetadata().getNamespace();
  }

  /** The server's name: of its Deployment and its Service. */
  String name() {
    return name;
  }

  /** The Service's port: {@code spec.service.port}, 8443 by default. */
  static int port(BackupStorageLocationServerSpec spec) {
    return spec.service == null || spec.service.port == null ? CONTAINER_PORT : spec.service.port;
  }

  /** ClusterIP, NodePort or LoadBalancer ({@code spec.service.type}, ClusterIP by default). */
  static String serviceType(BackupStorageLocationServerSpec spec) {
    return spec.service == null || spec.service.type == null ? "ClusterIP" : spec.service.type;
  }

  /** The Service's names inside the cluster, shortest first: the generated certificate's SANs. */
  List<String> dnsNames() {
    String svc = name + "." + namespace + ".svc";
    return List.of(name, name + "." + namespace, svc, svc + ".cluster.local");
  }

  /** {@code https://<svc>.<ns>.svc:<port>}. */
  String endpoint() {
    return "https://" + name + "." + namespace + ".svc:" + port(bsls.getSpec());
  }

  /** The labels of the server's pods, which the Service selects. */
  Map<String, String> selector() {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("app.kubernetes.io/name", "stele-server");
    labels.put("app.kubernetes.io/instance", name);
    return labels;
  }

  ConfigMap accessConfigMap() {
    BackupStorageLocationServerSpec.Access access = bsls.getSpec().access;
    String json;
    try {
      json =
          JSON.writeValueAsString(
              access == null ? new BackupStorageLocationServerSpec.Access() : access);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e); // plain strings, lists and maps
    }
    return new ConfigMapBuilder()
        .withMetadata(meta(name + "-access"))
        .addToData("access.json", json)
        .build();
  }

  Service service() {
    BackupStorageLocationServerSpec spec = bsls.getSpec();
    return new ServiceBuilder()
        .withMetadata(meta(name))
        .withNewSpec()
        .withType(serviceType(spec))
        .withSelector(selector())
        .addNewPort()
        .withName("https")
        .withProtocol("TCP")
        .withPort(port(spec))
        .withTargetPort(new IntOrString("https"))
        .endPort()
        .endSpec()
        .build();
  }

  /**
   * The Deployment of {@code image} serving the repository at {@code url}.
   *
   * @param location the repository's location, for its endpoint, region and Secrets
   * @param password the repository's password Secret key
   * @param tlsSecret the Secret holding tls.crt and tls.key
   */
  Deployment deployment(
      String image,
      String url,
      BackupStorageLocationSpec location,
      SecretKeySelector password,
      String tlsSecret) {
    BackupStorageLocationServerSpec spec = bsls.getSpec();
    List<String> args = new ArrayList<>(List.of("server", "--repo", url));
    args.addAll(List.of("--password-file", PASSWORD_DIR + "/" + password.getKey()));
    Map<String, String> config = location.config == null ? Map.of() : location.config;
    addIfPresent(args, "--endpoint", config.get("s3Url"));
    addIfPresent(args, "--region", config.get("region"));
    if ("true".equalsIgnoreCase(config.get("s3ForcePathStyle"))) {
      args.add("--path-style");
    }
    addIfPresent(args, "--profile", config.get("profile"));
    List<Volume> volumes = new ArrayList<>();
    List<VolumeMount> mounts = new ArrayList<>();
    List<EnvVar> env = new ArrayList<>();
    secretVolume(volumes, mounts, "password", password.getName(), password.getKey(), PASSWORD_DIR);
    SecretKeySelector credential = location.credential;
    if (credential != null) {
      secretVolume(
          volumes,
          mounts,
          "credentials",
          credential.getName(),
          credential.getKey(),
          CREDENTIALS_DIR);
      // The AWS SDK reads the location's credentials file, as Velero's plugin does.
      env.add(
          new EnvVar(
              "AWS_SHARED_CREDENTIALS_FILE", CREDENTIALS_DIR + "/" + credential.getKey(), null));
    }
    SecretKeySelector ca = location.objectStorage == null ? null : location.objectStorage.caCertRef;
    if (ca != null) {
      secretVolume(volumes, mounts, "ca", ca.getName(), ca.getKey(), CA_DIR);
      args.addAll(List.of("--ca-cert", CA_DIR + "/" + ca.getKey()));
    }
    args.addAll(List.of("--listen", "0.0.0.0:" + CONTAINER_PORT));
    args.addAll(List.of("--tls-cert", TLS_DIR + "/tls.crt", "--tls-key", TLS_DIR + "/tls.key"));
    args.addAll(List.of("--users", USERS_DIR, "--access", ACCESS_FILE));
    args.addAll(List.of("--resource", namespace + "/" + name)); // its Events go on the resource
    // Whole-directory mounts, never subPath: the kubelet updates these files in place.
    secretVolume(volumes, mounts, "tls", tlsSecret, null, TLS_DIR);
    secretVolume(volumes, mounts, "users", spec.userSecretRef.getName(), null, USERS_DIR);
    volumes.add(
        new VolumeBuilder()
            .withName("access")
            .withNewConfigMap()
            .withName(name + "-access")
            .endConfigMap()
            .build());
    mounts.add(mount("access", "/etc/stele/access"));
    // The root file system is read-only; the JVM and zstd-jni's native library need /tmp.
    volumes.add(new VolumeBuilder().withName("tmp").withNewEmptyDir().endEmptyDir().build());
    mounts.add(new VolumeMountBuilder().withName("tmp").withMountPath("/tmp").build());
    var container =
        new ContainerBuilder()
            .withName(CONTAINER)
            .withImage(image)
            .withArgs(args)
            .withEnv(env)
            .addNewPort()
            .withName("https")
            .withContainerPort(CONTAINER_PORT)
            .withProtocol("TCP")
            .endPort()
            .withNewReadinessProbe()
            .withNewHttpGet()
            .withPath("/healthz")
            .withPort(new IntOrString("https"))
            .withScheme("HTTPS")
            .endHttpGet()
            .withPeriodSeconds(5)
            .endReadinessProbe()
            .withResources(spec.resources)
            .withVolumeMounts(mounts)
            .withNewSecurityContext()
            .withRunAsNonRoot(true)
            .withReadOnlyRootFilesystem(true)
            .withAllowPrivilegeEscalation(false)
            .withNewCapabilities()
            .addToDrop("ALL")
            .endCapabilities()
            .endSecurityContext()
            .build();
    return new DeploymentBuilder()
        .withMetadata(meta(name))
        .withNewSpec()
        .withReplicas(spec.replicas == null ? 1 : spec.replicas)
        .withNewSelector()
        .withMatchLabels(selector())
        .endSelector()
        .withNewTemplate()
        .withNewMetadata()
        .withLabels(selector())
        .endMetadata()
        .withNewSpec()
        // Its own account (ServerAccount): the API server lets it read its resource and record
        // Events, nothing more.
        .withServiceAccountName(name)
        .withAutomountServiceAccountToken(true)
        .withNewSecurityContext()
        .withRunAsNonRoot(true)
        .withRunAsUser(USER)
        .withRunAsGroup(USER)
        .withFsGroup(USER)
        .withNewSeccompProfile()
        .withType("RuntimeDefault")
        .endSeccompProfile()
        .endSecurityContext()
        .withNodeSelector(spec.nodeSelector)
        .withTolerations(spec.tolerations)
        .withContainers(container)
        .withVolumes(volumes)
        .endSpec()
        .endTemplate()
        .endSpec()
        .build();
  }

  /** Metadata of an object named {@code object}, labelled as the pods and owned by the server. */
  ObjectMeta meta(String object) {
    return new ObjectMetaBuilder()
        .withName(object)
        .withNamespace(namespace)
        .withLabels(selector())
        .withOwnerReferences(owner())
        .build();
  }

  /** The controller reference to the server: the garbage collector deletes what carries it. */
  OwnerReference owner() {
    return new OwnerReferenceBuilder()
        .withApiVersion(bsls.getApiVersion())
        .withKind(bsls.getKind())
        .withName(name)
        .withUid(bsls.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
  }

  private static void secretVolume(
      List<Volume> volumes,
      List<VolumeMount> mounts,
      String volume,
      String secret,
      @Nullable String key,
      String dir) {
    var source = new VolumeBuilder().withName(volume).withNewSecret().withSecretName(secret);
    if (key != null) {
      source.withItems(new KeyToPathBuilder().withKey(key).withPath(key).build());
    }
    volumes.add(source.endSecret().build());
    mounts.add(mount(volume, dir));
  }

  private static VolumeMount mount(String volume, String dir) {
    return new VolumeMountBuilder().withName(volume).withMountPath(dir).withReadOnly(true).build();
  }

  private static void addIfPresent(List<String> args, String flag, @Nullable String value) {
    if (value != null && !value.isBlank()) {
      args.add(flag);
      args.add(value);
    }
  }
}
