package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.crypto.KdfParams;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.BackupStorageLocationSpec;
import dev.stele.k8s.api.PodRef;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.PodVolumeBackupSpec;
import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeRestoreSpec;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.RepositoryPhase;
import dev.stele.operator.SteleOperator;
import dev.stele.operator.kube.Settings;
import dev.stele.operator.store.DefaultStoreFactory;
import dev.stele.testing.Await;
import dev.stele.testing.RandomTree;
import dev.stele.testing.TreeAssert;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele node-agent} as a process of its own against fabric8's CRUD mock API server, the way
 * the DaemonSet runs it (KUBECONFIG standing in for the service account, NODE_NAME and
 * WATCH_NAMESPACE from the environment, server-side apply on), with a temporary directory as the
 * kubelet root. The operator runs in the test's JVM only to make the repository Ready. The agent
 * backs up a pod volume (the snapshot then restored by {@code stele restore} outside the cluster),
 * fills another pod's volume from it, and stops on SIGTERM; {@code stele restore-wait} sees the
 * marker.
 */
@EnableKubernetesMockClient(crud = true)
class NodeAgentCommandTest {
  static final String NS = "stele";
  static KubernetesClient client;

  @TempDir Path dir;

  Pod pod(String name, String node) {
    return client
        .pods()
        .inNamespace("app")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withUid(UUID.randomUUID().toString())
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
                .build())
        .create();
  }

  Path volume(Pod pod) {
    return dir.resolve(
        "kubelet/pods/" + pod.getMetadata().getUid() + "/volumes/kubernetes.io~empty-dir/data");
  }

  static <T extends HasMetadata> T named(T resource, String name) {
    resource.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    return resource;
  }

  @SuppressWarnings("try") // the operator serves the test until closed
  @Test
  void servesThisNodesVolumeRequestsAndStopsOnSigterm() throws Exception {
    Files.createDirectories(dir.resolve("bucket"));
    var spec = new BackupStorageLocationSpec();
    spec.provider = "filesystem";
    spec.config = Map.of("path", dir.toString());
    spec.objectStorage = new BackupStorageLocationSpec.ObjectStorage();
    spec.objectStorage.bucket = "bucket";
    client.resource(named(new BackupStorageLocation(), "default")).create();
    client
        .resources(BackupStorageLocation.class)
        .inNamespace(NS)
        .withName("default")
        .edit(
            b -> {
              b.setSpec(spec);
              return b;
            });
    long provisioning = System.nanoTime();
    Clock clock = Clock.systemUTC();
    Settings settings =
        new Settings(
            clock,
            new DefaultStoreFactory(clock),
            () -> {
              byte[] salt = new byte[16];
              new SecureRandom().nextBytes(salt);
              return KdfParams.argon2id(64, 1, salt);
            });
    // Its own client: stopping an Operator closes the client it was given.
    try (KubernetesClient own =
            new KubernetesClientBuilder().withConfig(client.getConfiguration()).build();
        SteleOperator operator = SteleOperator.start(own, settings, -1, false, NS)) {
      Await.until(
          "repository Ready",
          () ->
              client
                  .resources(BackupStorageLocationRepository.class)
                  .inNamespace(NS)
                  .withName("default")
                  .get(),
          r -> r.getStatus() != null && r.getStatus().phase == RepositoryPhase.READY);
    }

    System.err.printf(
        "NodeAgentCommandTest: repository Ready after %d ms%n",
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - provisioning));
    Pod web = pod("web", "node-1");
    Path source = new RandomTree(5).files(30).writeTo(volume(web));
    long started = System.nanoTime();
    Process process =
        ClusterFixture.start(
            client,
            dir,
            Map.of("WATCH_NAMESPACE", NS, "NODE_NAME", "node-1"),
            "node-agent",
            "--kubelet-root",
            dir.resolve("kubelet").toString(),
            "--health-port",
            "0");
    try {
      String first =
          Await.until(
                  "the agent to start",
                  () -> stdout().lines().filter(l -> l.startsWith("stele node-agent")).findFirst(),
                  l -> l.isPresent() || !process.isAlive())
              .orElseThrow(() -> new AssertionError("exited; stderr: " + stderr()));
      assertThat(first)
          .startsWith(
              "stele node-agent running for node node-1 against "
                  + client.getMasterUrl()
                  + " (namespace stele, kubeconfig "
                  + dir.resolve("kubeconfig")
                  + "); volumes under "
                  + dir.resolve("kubelet/pods")
                  + "; probes on port ");
      int healthPort = Integer.parseInt(first.substring(first.lastIndexOf(' ') + 1));
      var http = java.net.http.HttpClient.newHttpClient();
      java.util.function.Function<String, Integer> probe =
          path -> {
            try {
              return http.send(
                      java.net.http.HttpRequest.newBuilder(
                              java.net.URI.create("http://localhost:" + healthPort + path))
                          .build(),
                      java.net.http.HttpResponse.BodyHandlers.discarding())
                  .statusCode();
            } catch (Exception e) {
              throw new AssertionError(e);
            }
          };
      assertThat(probe.apply("/healthz")).isEqualTo(200);
      Await.until("the agent ready", () -> probe.apply("/readyz"), code -> code == 200);
      System.err.printf(
          "NodeAgentCommandTest: running after %d ms%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));

      // kubectl create: a PodVolumeBackup for this node.
      var pvbSpec = new PodVolumeBackupSpec();
      pvbSpec.node = "node-1";
      pvbSpec.pod = new PodRef("app", "web", web.getMetadata().getUid());
      pvbSpec.volume = "data";
      pvbSpec.repository = "default";
      pvbSpec.backupName = "nightly";
      pvbSpec.backupUID = "uid-1";
      var pvb = named(new PodVolumeBackup(), "web-data");
      pvb.setSpec(pvbSpec);
      client.resource(pvb).create();
      long t0 = System.nanoTime();
      PodVolumeStatus backedUp =
          Await.until(
                  "PodVolumeBackup Completed",
                  () ->
                      client
                          .resources(PodVolumeBackup.class)
                          .inNamespace(NS)
                          .withName("web-data")
                          .get(),
                  p -> p.getStatus() != null && p.getStatus().phase == PodVolumePhase.COMPLETED)
              .getStatus();
      System.err.printf(
          "NodeAgentCommandTest: PodVolumeBackup completed %d ms after it was created%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));

      // The same snapshot, outside the cluster, with the CLI and the password from the Secret.
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
      Cli cli = new Cli(dir.resolve("bucket/repositories/default").toString(), password);
      Path outside = dir.resolve("outside");
      Cli.Run restore =
          cli.run("restore", backedUp.snapshotID + ":" + source, "--target", outside.toString());
      assertThat(restore.exitCode()).as(restore.stderr()).isZero();
      TreeAssert.assertSameTree(source, outside);

      // A restored pod on this node: its volume is filled, then marked.
      Pod restored = pod("web-restored", "node-1");
      Path target = Files.createDirectories(volume(restored));
      var pvrSpec = new PodVolumeRestoreSpec();
      pvrSpec.pod = new PodRef("app", "web-restored", restored.getMetadata().getUid());
      pvrSpec.volume = "data";
      pvrSpec.repository = "default";
      pvrSpec.snapshotID = backedUp.snapshotID;
      pvrSpec.restoreUID = "restore-1";
      var pvr = named(new PodVolumeRestore(), "web-restored-data");
      pvr.setSpec(pvrSpec);
      client.resource(pvr).create();
      long t1 = System.nanoTime();
      Cli.Run wait = cli.run("restore-wait", "--restore-uid", "restore-1", target.toString());
      assertThat(wait.exitCode()).isZero();
      System.err.printf(
          "NodeAgentCommandTest: restore-wait returned %d ms after the PodVolumeRestore was created%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1));
      assertThat(wait.stdout())
          .isEqualTo(
              target + ": restored from snapshot " + backedUp.snapshotID.substring(0, 8) + "\n");
      assertThat(
              Await.until(
                      "PodVolumeRestore Completed",
                      () ->
                          client
                              .resources(PodVolumeRestore.class)
                              .inNamespace(NS)
                              .withName("web-restored-data")
                              .get(),
                      p -> p.getStatus() != null && p.getStatus().phase == PodVolumePhase.COMPLETED)
                  .getStatus()
                  .path)
          .isEqualTo(target.toString());
      Files.delete(target.resolve(".stele/restore-1"));
      Files.delete(target.resolve(".stele"));
      TreeAssert.assertSameTree(source, target);

      long stopping = System.nanoTime();
      process.destroy(); // SIGTERM
      assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      System.err.printf(
          "NodeAgentCommandTest: stopped %d ms after SIGTERM%n",
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopping));
      assertThat(stdout().lines().toList())
          .as("stderr: %s", stderr())
          .contains("stele node-agent stopped");
      assertThat(process.exitValue()).isEqualTo(143);
    } finally {
      process.destroyForcibly();
    }
  }

  @Test
  void withoutANodeNameItStopsWithOneLine() {
    Cli.Run run = new Cli("unused", "unused").run("node-agent");
    assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(run.errorLines())
        .containsExactly("stele: which node? pass --node NAME or set NODE_NAME");
  }

  private String stdout() {
    return ClusterFixture.output(dir, "stdout");
  }

  private String stderr() {
    return ClusterFixture.output(dir, "stderr");
  }
}
