package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.LabelSelectors;
import dev.stele.k8s.api.PodVolumeBackup;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.k8s.testing.ApiServer;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Backup's set-based label selectors and orLabelSelectors, sent to the test API server, which
 * evaluates them as a real one does (fabric8's mock alone would select everything).
 */
class BackupSelectorsTest {
  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();

  @TempDir Path base;
  OperatorFixture op;

  @BeforeEach
  void setUp() throws Exception {
    Files.createDirectories(base.resolve("bucket"));
    for (String ns : List.of(NS, "app")) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .create();
    }
    op = new OperatorFixture(client);
    op.defaultRepository(OperatorFixture.filesystemLocation(base));
    configMap("web", Map.of("app", "web", "tier", "front"));
    configMap("api", Map.of("app", "api"));
    configMap("db", Map.of("app", "db", "tier", "back"));
    configMap("bare", Map.of());
    pod("web-0", "web");
    pod("db-0", "db");
  }

  @AfterEach
  void stop() {
    op.assertWriteOnce();
    client.close();
    server.close();
  }

  void configMap(String name, Map<String, String> labels) {
    client
        .configMaps()
        .inNamespace("app")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .addToData("k", name)
                .build())
        .create();
  }

  /** A running pod labelled app=APP whose volume {@code data} is to be backed up. */
  void pod(String name, String app) {
    client
        .pods()
        .inNamespace("app")
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("app", app)
                .addToAnnotations(SteleApi.BACKUP_VOLUMES_ANNOTATION, "data")
                .endMetadata()
                .withNewSpec()
                .withNodeName("node-1")
                .addNewContainer()
                .withName("main")
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

  static BackupSpec configMapsAndPods() {
    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("app");
    spec.includedResources = List.of("configmaps", "pods");
    spec.includeClusterResources = false;
    return spec;
  }

  List<String> volumePods(String backup) {
    return client
        .resources(PodVolumeBackup.class)
        .inNamespace(NS)
        .withLabel(SteleApi.BACKUP_NAME_LABEL, backup)
        .list()
        .getItems()
        .stream()
        .map(p -> p.getSpec().pod.name)
        .sorted()
        .toList();
  }

  @Test
  void matchExpressionsSelectObjectsAndTheVolumesOfSelectedPods() {
    BackupSpec spec = configMapsAndPods();
    spec.labelSelector = LabelSelectors.parse("app in (web,api),tier notin (back)");
    op.backup("set", spec);

    BackupStatus s = op.reconcileBackup("set").getStatus();

    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    // configmaps web and api, pod web-0
    assertThat(s.items).isEqualTo(3);
    assertThat(volumePods("set")).containsExactly("web-0");
  }

  @Test
  void orLabelSelectorsListOncePerSelectorAndMergeWithoutDuplicates() {
    BackupSpec spec = configMapsAndPods();
    // api, db, bare, db-0 | api, bare, web-0, db-0 (pods have no tier label)
    spec.orLabelSelectors = LabelSelectors.parseAlternatives("app notin (web) or !tier");
    op.backup("or", spec);

    BackupStatus s = op.reconcileBackup("or").getStatus();

    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.WAITING_FOR_VOLUMES);
    assertThat(s.items).isEqualTo(5);
    assertThat(volumePods("or")).containsExactly("db-0", "web-0");
  }

  @Test
  void bothSelectorsTogetherFailTheBackupBeforeItStarts() {
    BackupSpec spec = configMapsAndPods();
    spec.labelSelector = LabelSelectors.parse("app=web");
    spec.orLabelSelectors = List.of(LabelSelectors.parse("app=db"));
    op.backup("both", spec);

    BackupStatus s = op.reconcileBackup("both").getStatus();

    assertThat(s.phase).isEqualTo(RunPhase.FAILED);
    assertThat(s.message)
        .isEqualTo("spec.labelSelector and spec.orLabelSelectors cannot both be set: use one");
    assertThat(s.startTimestamp).isNull();
    assertThat(op.eventReasons("both")).contains("Failed");
    assertThat(volumePods("both")).isEmpty();
  }
}
