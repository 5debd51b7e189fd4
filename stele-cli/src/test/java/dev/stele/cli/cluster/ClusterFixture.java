package dev.stele.cli.cluster;

import dev.stele.cli.Cli;
import dev.stele.cli.Main;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationRepositorySpec;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.RunPhase;
import dev.stele.testing.Await;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A fabric8 mock API server (CRUD mode) seen the way a person's machine sees a cluster: through a
 * kubeconfig file, passed with {@code --kubeconfig}, so that {@code stele} builds its client from
 * the file exactly as it would from {@code ~/.kube/config}. Resources are set up and read back with
 * the test's own client, acting as the operator would (statuses included).
 */
final class ClusterFixture {
  static final String NS = "stele";

  final KubernetesClient client;
  final Path kubeconfig;
  final Cli cli = new Cli(null, null);

  ClusterFixture(KubernetesClient client, Path dir) throws IOException {
    this.client = client;
    this.kubeconfig = dir.resolve("kubeconfig");
    writeKubeconfig(kubeconfig, "mock", client.getMasterUrl().toString());
  }

  /**
   * A kubeconfig whose current context is {@code current}: context {@code mock} reaches the mock
   * server, context {@code elsewhere} a closed port.
   */
  static void writeKubeconfig(Path file, String current, String server) throws IOException {
    writeKubeconfig(file, current, server, "default");
  }

  /** As above, with {@code namespace} as context {@code mock}'s namespace. */
  static void writeKubeconfig(Path file, String current, String server, String namespace)
      throws IOException {
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: mock
          cluster:
            server: %s
            insecure-skip-tls-verify: true
        - name: elsewhere
          cluster:
            server: https://127.0.0.1:1
            insecure-skip-tls-verify: true
        users:
        - name: test
          user:
            token: test-token
        contexts:
        - name: mock
          context:
            cluster: mock
            user: test
            namespace: %s
        - name: elsewhere
          context:
            cluster: elsewhere
            user: test
        current-context: %s
        """
            .formatted(server, namespace, current));
  }

  /**
   * {@code stele args…} as a process of its own, the way a Deployment or DaemonSet runs it: a
   * kubeconfig for {@code client}'s server in {@code dir} (context namespace {@link #NS}) named by
   * KUBECONFIG, the other {@code variables} in its environment, stdout and stderr into {@code
   * dir/stdout} and {@code dir/stderr}.
   */
  static Process start(
      KubernetesClient client, Path dir, Map<String, String> variables, String... args)
      throws IOException {
    Path kubeconfig = dir.resolve("kubeconfig");
    writeKubeconfig(kubeconfig, "mock", client.getMasterUrl().toString(), NS);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectOutput(dir.resolve("stdout").toFile())
            .redirectError(dir.resolve("stderr").toFile());
    pb.environment().put("KUBECONFIG", kubeconfig.toString());
    pb.environment().putAll(variables);
    return pb.start();
  }

  /**
   * What a process from {@link #start} wrote to {@code dir/stdout} or {@code dir/stderr} so far.
   */
  static String output(Path dir, String stream) {
    Path p = dir.resolve(stream);
    try {
      return Files.exists(p) ? Files.readString(p) : "";
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Waits until a command running meanwhile has printed {@code line} into {@code out}: the sign
   * that it has looked, before a test checks that it still waits.
   */
  static void awaitLine(ByteArrayOutputStream out, String line) {
    Await.until(
        "the line '" + line + "'",
        () -> out.toString(StandardCharsets.UTF_8),
        o -> o.lines().anyMatch(line::equals));
  }

  /** {@code stele args… --kubeconfig FILE}. */
  Cli.Run run(String... args) {
    return run(new ByteArrayOutputStream(), args);
  }

  /**
   * {@code stele args… --kubeconfig FILE}, its standard output readable in {@code out} meanwhile.
   */
  Cli.Run run(ByteArrayOutputStream out, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.add("--kubeconfig");
    all.add(kubeconfig.toString());
    return cli.run(out, all.toArray(String[]::new));
  }

  <T extends HasMetadata> T get(Class<T> type, String name) {
    return client.resources(type).inNamespace(NS).withName(name).get();
  }

  <T extends HasMetadata> List<T> list(Class<T> type) {
    return client.resources(type).inNamespace(NS).list().getItems();
  }

  <T extends HasMetadata> T create(T resource) {
    resource.getMetadata().setNamespace(NS);
    return client.resource(resource).create();
  }

  /** Writes the status of a resource already created, as the operator does. */
  <T extends HasMetadata> T updateStatus(T resource) {
    return client.resource(resource).updateStatus();
  }

  Backup backup(String name, BackupSpec spec, BackupStatus status) {
    Backup b = new Backup();
    b.setMetadata(new ObjectMetaBuilder().withName(name).build());
    b.setSpec(spec == null ? new BackupSpec() : spec);
    b = create(b);
    if (status != null) {
      b.setStatus(status);
      b = updateStatus(b);
    }
    return b;
  }

  static BackupStatus status(RunPhase phase) {
    BackupStatus s = new BackupStatus();
    s.phase = phase;
    return s;
  }

  /** A filesystem location: {@code dir/bucket} on this machine. */
  BackupStorageLocation location(String name, Path dir) throws IOException {
    Files.createDirectories(dir.resolve("bucket"));
    var spec = new BackupStorageLocationSpec();
    spec.provider = "filesystem";
    spec.config = Map.of("path", dir.toString());
    spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    spec.objectStorage.bucket = "bucket";
    var bsl = new BackupStorageLocation();
    bsl.setMetadata(new ObjectMetaBuilder().withName(name).build());
    bsl.setSpec(spec);
    return create(bsl);
  }

  BackupStorageLocationRepository repository(String name, String location) {
    var spec = new BackupStorageLocationRepositorySpec();
    spec.backupStorageLocation = location;
    var r = new BackupStorageLocationRepository();
    r.setMetadata(new ObjectMetaBuilder().withName(name).build());
    r.setSpec(spec);
    return create(r);
  }

  void secret(String name, String key, String value) {
    client
        .secrets()
        .inNamespace(NS)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(NS)
                .endMetadata()
                .addToData(
                    key, Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)))
                .build())
        .create();
  }
}
