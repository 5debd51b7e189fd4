package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.cli.Processes;
import dev.stele.cli.Processes.Result;
import dev.stele.cli.RgwBuckets;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationServer;
import dev.stele.k8s.api.BackupStorageLocationServerSpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.LocationPhase;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.operator.SteleOperator;
import dev.stele.testing.Await;
import dev.stele.testing.RandomTree;
import dev.stele.testing.Rgw;
import dev.stele.testing.TreeAssert;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator and the node agent as containers of the image ({@code deploy/image/build.sh}), each
 * run with the arguments of the Deployment and DaemonSet that {@code stele install --apply}
 * created, against the test API server ({@link ApiServer}) on the host's loopback (the containers
 * use the host's network): a filesystem location mounted at {@code /backups} in both, a pod volume
 * directory mounted as the kubelet's pod directory in the node agent. A Backup with one pod volume
 * completes and restores byte-exact, as {@code EndToEndIT} proves in one JVM; the operator runs
 * with server-side apply and leader election, logs JSON, and stops on SIGTERM releasing its Lease.
 * The repository server's Deployment, as the operator generates it for a bsls, runs from the same
 * image and serves the CLI. Needs podman as root and Ceph RGW ({@code .ci/run} installs it); fails
 * without it.
 */
class ContainerEndToEndIT {
  private static final Path CHECKOUT = Path.of("").toAbsolutePath().getParent();
  private static final String ID = UUID.randomUUID().toString().substring(0, 8);
  private static final String IMAGE = "localhost/stele:e2e-" + ID;

  private static final Await.Policy WAIT = Await.atMost(Duration.ofMinutes(2));
  private static final String NS = "stele";
  private static final int STELE_UID = 10001;

  @TempDir static Path tmp;
  @TempDir Path dir;

  ApiServer server;
  KubernetesClient client;
  SteleOperator inJvmOperator;
  final List<String> containers = new ArrayList<>();

  @BeforeAll
  static void buildImage() throws Exception {
    Result built = run(CHECKOUT, Duration.ofMinutes(30), "deploy/image/build.sh", "--tag", IMAGE);
    assertThat(built.exitCode()).as(built.err()).isZero();
  }

  @AfterAll
  static void removeImage() throws Exception {
    run(tmp, Duration.ofMinutes(1), "podman", "rmi", "--ignore", IMAGE);
  }

  @AfterEach
  void stop() throws Exception {
    for (String name : containers) {
      Result logs = run(tmp, Duration.ofMinutes(1), "podman", "logs", name);
      System.err.printf("--- %s%n%s%s", name, logs.out(), tail(logs.err(), 40));
      run(tmp, Duration.ofMinutes(1), "podman", "rm", "--force", "--ignore", name);
    }
    if (inJvmOperator != null) {
      inJvmOperator.close();
    }
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aBackupWithAPodVolumeCompletesAndRestoresByteExactThroughTheImage() throws Exception {
    server = new ApiServer();
    client = server.client();
    Path kubeconfig = dir.resolve("kubeconfig");
    ClusterFixture.writeKubeconfig(kubeconfig, "mock", server.url(), NS);
    Path backups = Files.createDirectories(dir.resolve("backups/bucket")).getParent();
    chown(backups, STELE_UID);
    Path pods = Files.createDirectories(dir.resolve("kubelet/pods"));

    Cli.Run install =
        new Cli(null, null)
            .run(
                "install",
                "--apply",
                "--kubeconfig",
                kubeconfig.toString(),
                "--image",
                IMAGE,
                "--bucket",
                "bucket",
                "--provider",
                "filesystem",
                "--backup-location-config",
                "path=/backups");
    assertThat(install.exitCode()).as(install.stderr()).isEqualTo(ExitCode.OK);

    // The containers as the applied Deployment and DaemonSet describe them; ports on the host's
    // network are taken by whatever else runs here, so each gets a free one.
    Container operatorSpec =
        client
            .apps()
            .deployments()
            .inNamespace(NS)
            .withName("stele-operator")
            .get()
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0);
    Container agentSpec =
        client
            .apps()
            .daemonSets()
            .inNamespace(NS)
            .withName("stele-node-agent")
            .get()
            .getSpec()
            .getTemplate()
            .getSpec()
            .getContainers()
            .get(0);
    assertThat(operatorSpec.getImage()).isEqualTo(IMAGE);
    int metricsPort = freePort();
    int healthPort = freePort();
    List<String> common =
        List.of(
            "--network=host",
            "-v",
            kubeconfig + ":/kube/config:ro",
            "-e",
            "KUBECONFIG=/kube/config",
            "-e",
            "WATCH_NAMESPACE=" + NS,
            "-v",
            backups + ":/backups");
    // The operator's own pod, as the kubelet would run it: the operator reads its image there
    // (POD_NAME, POD_NAMESPACE from the downward API) for the restore-wait containers it adds.
    client
        .pods()
        .inNamespace(NS)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("stele-operator-" + ID)
                .endMetadata()
                .withNewSpec()
                .withContainers(operatorSpec)
                .endSpec()
                .build())
        .create();
    String operator =
        start(
            "operator",
            Stream.concat(
                    common.stream(),
                    Stream.of(
                        "--read-only",
                        "--read-only-tmpfs=false",
                        "--tmpfs",
                        "/tmp",
                        "-e",
                        "HOSTNAME=stele-operator-" + ID,
                        "-e",
                        "POD_NAME=stele-operator-" + ID,
                        "-e",
                        "POD_NAMESPACE=" + NS))
                .toList(),
            withPort(operatorSpec.getArgs(), "--metrics-port", metricsPort));
    String agent =
        start(
            "node-agent",
            Stream.concat(
                    common.stream(),
                    Stream.of(
                        "--user",
                        "0",
                        "-e",
                        "NODE_NAME=node-1",
                        "-v",
                        pods + ":/var/lib/kubelet/pods"))
                .toList(),
            withPort(agentSpec.getArgs(), "--health-port", healthPort));

    WAIT.until("the operator ready", () -> status(metricsPort, "/readyz") == 200);
    WAIT.until("the node agent ready", () -> status(healthPort, "/readyz") == 200);
    WAIT.until("the Lease held", () -> ("stele-operator-" + ID).equals(holder()));
    WAIT.until(
        "location Available",
        () -> {
          var b = client.resources(BackupStorageLocation.class).inNamespace(NS).withName("default");
          return b.get().getStatus() != null
              && b.get().getStatus().phase == LocationPhase.AVAILABLE;
        });
    WAIT.until(
        "repository Ready",
        () -> {
          var r =
              client
                  .resources(BackupStorageLocationRepository.class)
                  .inNamespace(NS)
                  .withName("default")
                  .get();
          return r != null && r.getStatus() != null && r.getStatus().phase == RepositoryPhase.READY;
        });

    // An application with data in its pod volume, on node-1.
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName("app").endMetadata().build())
        .create();
    Pod web = pod("app", "web", "node-1");
    Path source = volume(pods, web);
    new RandomTree(7).files(40).maxFileSize(1 << 20).writeTo(source);

    Backup backup = new Backup();
    backup.setMetadata(new ObjectMetaBuilder().withName("nightly").withNamespace(NS).build());
    backup.setSpec(new BackupSpec());
    backup.getSpec().includedNamespaces = List.of("app");
    client.resource(backup).create();
    Backup done =
        WAIT.until(
            "nightly finished",
            () -> client.resources(Backup.class).inNamespace(NS).withName("nightly").get(),
            b ->
                b.getStatus() != null
                    && List.of(RunPhase.COMPLETED, RunPhase.PARTIALLY_FAILED, RunPhase.FAILED)
                        .contains(b.getStatus().phase));
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(done.getStatus().volumesCompleted).isEqualTo(1);

    Restore restore = new Restore();
    restore.setMetadata(new ObjectMetaBuilder().withName("copy").withNamespace(NS).build());
    restore.setSpec(new RestoreSpec());
    restore.getSpec().backupName = "nightly";
    restore.getSpec().namespaceMapping = Map.of("app", "app-copy");
    client.resource(restore).create();
    // The kubelet's part: the restored pod is scheduled to node-1 and gets its volume directory.
    Pod copy =
        WAIT.until(
            "the restored pod",
            () -> client.pods().inNamespace("app-copy").withName("web").get(),
            p -> true);
    // Its restore-wait container runs the image the operator runs, not a name baked into the code.
    assertThat(copy.getSpec().getInitContainers()).isNotEmpty();
    assertThat(copy.getSpec().getInitContainers().get(0).getImage()).isEqualTo(IMAGE);
    copy =
        client
            .pods()
            .inNamespace("app-copy")
            .withName("web")
            .edit(
                p -> {
                  p.getSpec().setNodeName("node-1");
                  return p;
                });
    Path restored = volume(pods, copy);
    Restore finished =
        WAIT.until(
            "restore finished",
            () -> client.resources(Restore.class).inNamespace(NS).withName("copy").get(),
            r ->
                r.getStatus() != null
                    && List.of(RunPhase.COMPLETED, RunPhase.PARTIALLY_FAILED, RunPhase.FAILED)
                        .contains(r.getStatus().phase));
    assertThat(finished.getStatus().phase)
        .as(finished.getStatus().message)
        .isEqualTo(RunPhase.COMPLETED);
    // The node agent's mark that the volume is filled (restore-wait waits for it), then the data.
    Path mark = restored.resolve(".stele").resolve(finished.getMetadata().getUid());
    assertThat(mark).exists();
    Files.delete(mark);
    Files.delete(mark.getParent());
    TreeAssert.assertSameTree(source, restored);

    System.err.printf(
        "ContainerEndToEndIT: peak RSS operator %d MiB, node agent %d MiB%n",
        peakRssKiB(operator) / 1024, peakRssKiB(agent) / 1024);

    // SIGTERM, as the kubelet stops a pod: the operator stops, says so, and lets go of the Lease.
    Result stopped = run(tmp, Duration.ofMinutes(1), "podman", "stop", "--time", "30", operator);
    assertThat(stopped.exitCode()).as(stopped.err()).isZero();
    Result state =
        run(
            tmp,
            Duration.ofMinutes(1),
            "podman",
            "inspect",
            "--format",
            "{{.State.ExitCode}}",
            operator);
    assertThat(state.out().strip()).isEqualTo("143");
    assertThat(holder()).isNullOrEmpty();
    Result logs = run(tmp, Duration.ofMinutes(1), "podman", "logs", operator);
    assertThat(logs.out()).contains("stele operator stopped");
    assertOneJsonObjectPerLine(logs.err());
    Result agentLogs = run(tmp, Duration.ofMinutes(1), "podman", "logs", agent);
    assertOneJsonObjectPerLine(agentLogs.err());
  }

  /**
   * The repository server's Deployment, as the operator (in this JVM) generates it for a bsls on a
   * Ready repository in a locked RGW bucket, run by podman as the kubelet would run it ({@link
   * Kubelet}): the CLI logs in through it pinned to the fingerprint in status, lists, lists a
   * directory and reads files byte-exact, is refused a wrong password in one line, and logs in as a
   * user added to the mounted Secret while the container runs.
   */
  @Test
  void theServerDeploymentOfABslsServesASnapshotThroughTheImage() throws Exception {
    server = new ApiServer();
    client = server.client();
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
        .create();
    Rgw rgw = Rgw.shared();
    String bucket = RgwBuckets.create("e2e-lock-", true);
    secret(
        "cloud-credentials",
        Map.of(
            "cloud",
            "[default]\naws_access_key_id="
                + rgw.accessKey()
                + "\naws_secret_access_key="
                + rgw.secretKey()
                + "\n"));
    secret("files-users", Map.of("alice", "alice's password"));
    var bsl = new BackupStorageLocation();
    bsl.setMetadata(new ObjectMetaBuilder().withName("default").withNamespace(NS).build());
    bsl.setSpec(new BackupStorageLocationSpec());
    bsl.getSpec().provider = "s3";
    bsl.getSpec().config =
        Map.of(
            "s3Url", rgw.endpoint().toString(), "region", rgw.region(), "s3ForcePathStyle", "true");
    bsl.getSpec().credential = new SecretKeySelector("cloud", "cloud-credentials", false);
    bsl.getSpec().objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    bsl.getSpec().objectStorage.bucket = bucket;
    bsl.getSpec().objectStorage.prefix = "stele";
    bsl.getSpec().objectLock = new BackupStorageLocationSpec.ObjectLock();
    bsl.getSpec().objectLock.mode = "Compliance";
    bsl.getSpec().objectLock.minimumRetention = "1d";
    client.resource(bsl).create();

    // The operator in this JVM, with production's settings, running the image built above.
    inJvmOperator = SteleOperator.start(client, NS, IMAGE, null, null, -1, false);
    BackupStorageLocationRepository repository =
        WAIT.until(
            "repository default Ready",
            () ->
                client
                    .resources(BackupStorageLocationRepository.class)
                    .inNamespace(NS)
                    .withName("default")
                    .get(),
            r -> r.getStatus() != null && r.getStatus().phase == RepositoryPhase.READY);

    // A snapshot made directly in the repository, as its owner would.
    String password =
        new String(
            Base64.getDecoder()
                .decode(
                    client
                        .secrets()
                        .inNamespace(NS)
                        .withName("default-repository-password")
                        .get()
                        .getData()
                        .get("password")),
            StandardCharsets.UTF_8);
    Cli direct =
        new Cli(repository.getStatus().url, password)
            .with("STELE_S3_ENDPOINT", rgw.endpoint().toString())
            .with("STELE_S3_REGION", rgw.region())
            .with("STELE_S3_PATH_STYLE", "true")
            .with("AWS_ACCESS_KEY_ID", rgw.accessKey())
            .with("AWS_SECRET_ACCESS_KEY", rgw.secretKey());
    Path source = dir.resolve("source");
    Cli.writeSampleSource(source);
    Cli.Run created = direct.run("snapshot", "create", source.toString(), "--json");
    assertThat(created.exitCode()).as(created.stderr()).isEqualTo(ExitCode.OK);
    String id = new ObjectMapper().readTree(created.stdout()).get("id").asText();

    var bsls = new BackupStorageLocationServer();
    bsls.setMetadata(new ObjectMetaBuilder().withName("files").withNamespace(NS).build());
    bsls.setSpec(new BackupStorageLocationServerSpec());
    bsls.getSpec().backupStorageLocationRepositoryRef = "default";
    bsls.getSpec().userSecretRef = new LocalObjectReference("files-users");
    bsls.getSpec().access = new BackupStorageLocationServerSpec.Access();
    bsls.getSpec().access.admins = List.of("alice", "carol");
    client.resource(bsls).create();
    String fingerprint =
        WAIT.until(
                "the server's fingerprint",
                () ->
                    client
                        .resources(BackupStorageLocationServer.class)
                        .inNamespace(NS)
                        .withName("files")
                        .get(),
                s -> s.getStatus() != null && s.getStatus().tlsFingerprint != null)
            .getStatus()
            .tlsFingerprint;
    Deployment deployment =
        WAIT.until(
            "the server's Deployment",
            () -> client.apps().deployments().inNamespace(NS).withName("files").get(),
            d -> d != null);

    // The kubelet's part: the pod template's container, as specified, on a free port.
    PodSpec pod = deployment.getSpec().getTemplate().getSpec();
    Container spec = pod.getContainers().get(0);
    assertThat(spec.getImage()).isEqualTo(IMAGE);
    assertThat(spec.getCommand()).as("the image's entrypoint runs").isNullOrEmpty();
    Kubelet kubelet = new Kubelet(client, NS, Files.createDirectories(dir.resolve("volumes")));
    int port = freePort();
    List<String> args = new ArrayList<>(spec.getArgs());
    int listen = args.indexOf("--listen");
    assertThat(listen).as("--listen in " + args).isNotNegative();
    args.set(listen + 1, "0.0.0.0:" + port);
    List<String> options = new ArrayList<>(kubelet.options(pod, spec));
    // The pod's own account reaches the API server (its Events go on the bsls). A kubelet mounts
    // the account's token and the cluster's CA; the test API server speaks plain HTTP, which the
    // in-cluster configuration does not, so the pod is given a kubeconfig for it instead.
    assertThat(pod.getServiceAccountName()).isEqualTo("files");
    assertThat(pod.getAutomountServiceAccountToken()).isTrue();
    Path kubeconfig = dir.resolve("server-kubeconfig");
    ClusterFixture.writeKubeconfig(kubeconfig, "mock", server.url(), NS);
    options.addAll(List.of("-v", kubeconfig + ":/kube/config:ro", "-e", "KUBECONFIG=/kube/config"));
    start("server", options, args);

    String repo = "https://127.0.0.1:" + port;
    Cli alice = new Cli(repo, "alice's password").with("STELE_USER", "alice");
    Cli.Run list =
        WAIT.until(
            "snapshot list through the server",
            () -> alice.run("snapshot", "list", "--json", "--server-cert-fingerprint", fingerprint),
            r -> r.exitCode() == ExitCode.OK);
    var snapshots = new ObjectMapper().readTree(list.stdout());
    assertThat(snapshots).hasSize(1);
    assertThat(snapshots.get(0).get("id").asText()).isEqualTo(id);
    Cli.Run ls = alice.run("ls", "-r", id + ":" + source, "--server-cert-fingerprint", fingerprint);
    assertThat(ls.exitCode()).as(ls.stderr()).isEqualTo(ExitCode.OK);
    assertThat(ls.stdout()).contains("hello.txt", "sub/notes.txt", "sub/deeper/random.bin");
    for (String file : List.of("hello.txt", "sub/notes.txt", "sub/deeper/random.bin")) {
      Cli.Run cat =
          alice.run(
              "cat", id + ":" + source.resolve(file), "--server-cert-fingerprint", fingerprint);
      assertThat(cat.exitCode()).as(cat.stderr()).isEqualTo(ExitCode.OK);
      assertThat(cat.stdoutBytes()).isEqualTo(Files.readAllBytes(source.resolve(file)));
    }
    Cli.Run wrong =
        new Cli(repo, "not alice's")
            .with("STELE_USER", "alice")
            .run("snapshot", "list", "--server-cert-fingerprint", fingerprint);
    assertThat(wrong.exitCode()).isEqualTo(ExitCode.WRONG_PASSWORD);
    assertThat(wrong.errorLines()).containsExactly("stele: server: wrong user or password");
    // ... and the refusal is a Warning Event on the bsls, from the server in its container.
    WAIT.until(
        "a LoginRefused Event on the bsls",
        () ->
            client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "LoginRefused".equals(e.getReason()))
                .filter(e -> "files".equals(e.getInvolvedObject().getName()))
                .toList(),
        events -> !events.isEmpty() && events.get(0).getMessage().startsWith("alice from "));

    // A user added to the Secret: the kubelet swaps ..data; the running server lets her in.
    Cli carol = new Cli(repo, "carol's password").with("STELE_USER", "carol");
    assertThat(carol.run("snapshot", "list", "--server-cert-fingerprint", fingerprint).exitCode())
        .isEqualTo(ExitCode.WRONG_PASSWORD);
    client
        .secrets()
        .inNamespace(NS)
        .withName("files-users")
        .edit(
            s -> {
              s.getData().put("carol", base64("carol's password"));
              return s;
            });
    kubelet.sync("users");
    Cli.Run carolList =
        carol.run("snapshot", "list", "--json", "--server-cert-fingerprint", fingerprint);
    assertThat(carolList.exitCode()).as(carolList.stderr()).isEqualTo(ExitCode.OK);
    assertThat(new ObjectMapper().readTree(carolList.stdout())).isEqualTo(snapshots);
  }

  private void secret(String name, Map<String, String> data) {
    Map<String, String> encoded = new TreeMap<>();
    data.forEach((k, v) -> encoded.put(k, base64(v)));
    client
        .secrets()
        .inNamespace(NS)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withData(encoded)
                .build())
        .create();
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  private static void assertOneJsonObjectPerLine(String log) throws IOException {
    List<String> lines = log.lines().toList();
    assertThat(lines).isNotEmpty();
    ObjectMapper json = new ObjectMapper();
    for (String line : lines) {
      var event = json.readTree(line);
      assertThat(event.has("level") && event.has("formattedMessage")).as(line).isTrue();
    }
  }

  private Pod pod(String namespace, String name, String node) {
    return client
        .pods()
        .inNamespace(namespace)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withUid(UUID.randomUUID().toString())
                .addToAnnotations(SteleApi.BACKUP_VOLUMES_ANNOTATION, "data")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("app")
                .withImage("busybox")
                .endContainer()
                .addNewVolume()
                .withName("data")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .endStatus()
                .build())
        .create();
  }

  private static Path volume(Path pods, Pod pod) throws IOException {
    return Files.createDirectories(
        pods.resolve(pod.getMetadata().getUid() + "/volumes/kubernetes.io~empty-dir/data"));
  }

  private String start(String role, List<String> options, List<String> args) throws Exception {
    String name = "stele-e2e-" + ID + "-" + role;
    List<String> command = new ArrayList<>(List.of("podman", "run", "-d", "--name", name));
    command.addAll(options);
    command.add(IMAGE);
    command.addAll(args);
    containers.add(name);
    Result started = run(tmp, Duration.ofMinutes(1), command.toArray(String[]::new));
    assertThat(started.exitCode()).as(started.err()).isZero();
    return name;
  }

  /** {@code args} with the value after {@code option} replaced by {@code port}. */
  private static List<String> withPort(List<String> args, String option, int port) {
    List<String> out = new ArrayList<>(args);
    int i = out.indexOf(option);
    assertThat(i).as(option + " in " + args).isNotNegative();
    out.set(i + 1, Integer.toString(port));
    return out;
  }

  private String holder() {
    Lease lease = client.leases().inNamespace(NS).withName("stele-operator").get();
    return lease == null ? null : lease.getSpec().getHolderIdentity();
  }

  /** The container's main process's peak resident set (VmHWM), in KiB. */
  private static long peakRssKiB(String container) throws Exception {
    String pid =
        run(
                tmp,
                Duration.ofMinutes(1),
                "podman",
                "inspect",
                "--format",
                "{{.State.Pid}}",
                container)
            .out()
            .strip();
    for (String line : Files.readAllLines(Path.of("/proc", pid, "status"))) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new AssertionError("no VmHWM for " + container);
  }

  private static int status(int port, String path) {
    try {
      return HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void chown(Path path, int uid) throws Exception {
    Result r = run(tmp, Duration.ofMinutes(1), "chown", "-R", uid + ":" + uid, path.toString());
    assertThat(r.exitCode()).as(r.err()).isZero();
  }

  private static String tail(String s, int lines) {
    List<String> all = s.lines().toList();
    return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())) + "\n";
  }

  private static Result run(Path dir, Duration timeout, String... command) throws Exception {
    return Processes.run(tmp, dir, timeout, command);
  }
}
