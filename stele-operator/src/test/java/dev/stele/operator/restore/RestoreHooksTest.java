package dev.stele.operator.restore;

import static dev.stele.operator.restore.RestoreFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.PodVolumePhase;
import dev.stele.k8s.api.PodVolumeRestore;
import dev.stele.k8s.api.PodVolumeStatus;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreHooks;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.k8s.testing.ExecResult;
import dev.stele.repo.Repository;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restore hooks against the test API server: init containers added to restored pods, and exec hooks
 * run through {@code pods/exec} once the restored pod runs (the test plays the kubelet by setting
 * the pod's status, and the node agent by ending the PodVolumeRestores).
 */
class RestoreHooksTest {
  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();
  final List<String> ran = new CopyOnWriteArrayList<>();

  @TempDir Path base;
  RestoreFixture op;

  @BeforeEach
  void setUp() throws Exception {
    Files.createDirectories(base.resolve("bucket"));
    op = new RestoreFixture(client, base);
    server.onExec(
        (pod, container, argv) -> {
          ran.add(
              pod.getMetadata().getNamespace()
                  + "/"
                  + pod.getMetadata().getName()
                  + "/"
                  + container
                  + " "
                  + argv);
          return ExecResult.ok("warmed up\n");
        });
  }

  @AfterEach
  void stop() {
    op.assertWriteOnce();
    client.close();
    server.close();
  }

  static Pod pod(String name, Map<String, String> annotations, String... volumes) {
    var spec =
        new PodBuilder()
            .withNewMetadata()
            .withName(name)
            .withNamespace("app")
            .addToLabels("app", name)
            .addToAnnotations(annotations)
            .endMetadata()
            .withNewSpec()
            .withNodeName("node-1")
            .addNewInitContainer()
            .withName("setup")
            .withImage("busybox")
            .endInitContainer()
            .addNewContainer()
            .withName("db")
            .withImage("postgres:17")
            .endContainer();
    for (String v : volumes) {
      spec.addNewVolume().withName(v).withNewEmptyDir().endEmptyDir().endVolume();
    }
    return spec.endSpec().build();
  }

  void backup(Pod... pods) throws Exception {
    List<HasMetadata> objects =
        new java.util.ArrayList<>(
            List.of(
                new NamespaceBuilder().withNewMetadata().withName("app").endMetadata().build()));
    objects.addAll(List.of(pods));
    List<BackupFixture.PodVolume> volumes = new java.util.ArrayList<>();
    for (Pod p : pods) {
      for (var v : p.getSpec().getVolumes()) {
        volumes.add(
            new BackupFixture.PodVolume(
                "app", p.getMetadata().getName(), v.getName(), "Completed", null));
      }
    }
    BackupFixture.write(op, "nightly", objects, volumes);
  }

  RestoreSpec toNew() {
    var spec = new RestoreSpec();
    spec.backupName = "nightly";
    spec.namespaceMapping = Map.of("app", "app-new");
    return spec;
  }

  Pod restored(String name) {
    return client.pods().inNamespace("app-new").withName(name).get();
  }

  /** What the kubelet reports once the pod runs with container db ready (or not). */
  void running(String name, boolean ready) {
    Pod pod = restored(name);
    pod.setStatus(
        new io.fabric8.kubernetes.api.model.PodStatusBuilder()
            .withPhase("Running")
            .withContainerStatuses(
                new ContainerStatusBuilder().withName("db").withReady(ready).build())
            .build());
    client.resource(pod).updateStatus();
  }

  String log(Restore done) throws Exception {
    try (Repository repo = op.openRepository()) {
      return new String(
          dev.stele.operator.backup.SmallSnapshot.read(
              repo, op.results(repo, done).get(0).manifest(), RestoreDocument.LOG),
          StandardCharsets.UTF_8);
    }
  }

  @Test
  void initHooksAddContainersAfterTheWaitContainerAndBeforeThePodsOwn() throws Exception {
    backup(
        pod(
            "db",
            Map.of(
                "init.hook.restore.velero.io/container-image", "busybox:1.36",
                "init.hook.restore.velero.io/container-name", "prepare",
                "init.hook.restore.velero.io/command", "[\"/bin/prepare\", \"--fix perms\"]"),
            "data"),
        pod("web", Map.of()));
    RestoreSpec spec = toNew();
    var hook = new RestoreHooks.Hook();
    hook.init = new RestoreHooks.Init();
    hook.init.initContainers =
        List.of(new ContainerBuilder().withName("seed").withImage("seed:1").build());
    var resource = new RestoreHooks.ResourceHook();
    resource.name = "seed-web";
    resource.labelSelector = new LabelSelectorBuilder().addToMatchLabels("app", "web").build();
    resource.postHooks = List.of(hook);
    spec.hooks = new RestoreHooks();
    spec.hooks.resources = List.of(resource);
    op.restore("r", spec);

    op.pass("r");

    Pod db = restored("db");
    assertThat(db.getSpec().getInitContainers())
        .extracting(Container::getName)
        .containsExactly(VolumeFilling.INIT_CONTAINER, "prepare", "setup");
    assertThat(db.getSpec().getInitContainers().get(1).getCommand())
        .containsExactly("/bin/prepare", "--fix perms");
    assertThat(db.getSpec().getInitContainers().get(1).getImage()).isEqualTo("busybox:1.36");
    assertThat(restored("web").getSpec().getInitContainers())
        .extracting(Container::getName)
        .containsExactly("seed", "setup");
  }

  @Test
  void aPostRestoreHookWaitsUntilThePodRunsWithItsContainerReadyThenRunsOnce() throws Exception {
    backup(pod("db", Map.of("post.hook.restore.velero.io/command", "[\"/bin/warm\", \"cache\"]")));
    op.restore("r", toNew());

    Restore waiting = op.pass("r");
    assertThat(waiting.getStatus().phase).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    assertThat(waiting.getStatus().message).contains("waiting for pods app-new/db to run");
    running("db", false);
    op.pass("r");
    assertThat(ran).isEmpty();

    running("db", true);
    Restore done = op.pass("r");

    assertThat(ran).containsExactly("app-new/db/db [/bin/warm, cache]");
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(done.getStatus().hookStatus.hooksAttempted).isEqualTo(1);
    assertThat(log(done))
        .contains(
            "post-restore hook annotations in pod app-new/db, container db: [/bin/warm, cache]: exit code 0")
        .contains("stdout: warmed up");
    op.pass("r");
    assertThat(ran).hasSize(1);
  }

  @Test
  void aPostRestoreHookRunsOnlyOnceThePodsVolumesAreRestored() throws Exception {
    backup(pod("db", Map.of("post.hook.restore.stele.dev/command", "check"), "data"));
    op.restore("r", toNew());
    Restore waiting = op.pass("r");
    running("db", true); // as if it ran before its data came back: it does not wait here
    op.pass("r");
    assertThat(ran).isEmpty();

    for (PodVolumeRestore pvr : op.volumeRequests(waiting)) {
      pvr.setStatus(new PodVolumeStatus());
      pvr.getStatus().phase = PodVolumePhase.COMPLETED;
      client.resource(pvr).updateStatus();
    }
    Restore done = op.pass("r");

    assertThat(ran).containsExactly("app-new/db/db [check]");
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
  }

  @Test
  void aPodNotReadyWithinTheWaitTimeoutFailsItsHookAsOnErrorSays() throws Exception {
    backup(
        pod(
            "db",
            Map.of(
                "post.hook.restore.velero.io/command", "check",
                "post.hook.restore.velero.io/wait-timeout", "2m",
                "post.hook.restore.velero.io/on-error", "Fail")));
    op.restore("r", toNew());
    op.pass("r");
    op.clock.advance(Duration.ofMinutes(3));

    Restore done = op.pass("r");

    assertThat(ran).isEmpty();
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.PARTIALLY_FAILED);
    assertThat(done.getStatus().message)
        .contains("the pod did not run with its container ready within 2m");
    assertThat(done.getStatus().hookStatus.hooksFailed).isEqualTo(1);
    assertThat(
            client.v1().events().inNamespace(NS).list().getItems().stream().map(e -> e.getReason()))
        .contains("HookFailed");
  }
}
