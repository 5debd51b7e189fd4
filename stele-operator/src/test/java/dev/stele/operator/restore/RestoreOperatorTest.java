package dev.stele.operator.restore;

import static dev.stele.operator.restore.RestoreFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.BackupStorageLocation;
import dev.stele.k8s.api.BackupStorageLocationRepository;
import dev.stele.k8s.api.LabelSelectors;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.OwnImage;
import dev.stele.repo.BlobKind;
import dev.stele.repo.Repository;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restores of API resources from backups the backup reconciler took (resources only, no {@code
 * backup.json}), both reconcilers called directly, a directory as the bucket, every store audited.
 */
@EnableKubernetesMockClient(crud = true)
class RestoreOperatorTest {
  static KubernetesClient client;

  @TempDir Path base;
  RestoreFixture op;

  /** What the backup of app-a and app-b holds. */
  static final int ITEMS = 12;

  @BeforeEach
  void setUp() throws Exception {
    clean(client);
    Files.createDirectories(base.resolve("bucket"));
    op = new RestoreFixture(client, base);
    for (String ns : List.of("app-a", "app-b", "other")) {
      client
          .namespaces()
          .resource(
              new NamespaceBuilder()
                  .withNewMetadata()
                  .withName(ns)
                  .addToLabels("team", ns)
                  .endMetadata()
                  .build())
          .create();
      configMap(ns, "settings", "fast", Map.of("keep", ns.equals("app-a") ? "yes" : "no"));
      client
          .secrets()
          .inNamespace(ns)
          .resource(
              new SecretBuilder()
                  .withNewMetadata()
                  .withName("token")
                  .endMetadata()
                  .addToStringData("token", "s3cr3t-" + ns)
                  .build())
          .create();
    }
    client
        .configMaps()
        .inNamespace("app-a")
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName("owned")
                .withOwnerReferences(
                    new OwnerReferenceBuilder()
                        .withApiVersion("apps/v1")
                        .withKind("Deployment")
                        .withName("gone")
                        .withUid("0b5e7e0e-0000-0000-0000-000000000000")
                        .build())
                .endMetadata()
                .addToData("k", "v")
                .build())
        .create();
    client
        .services()
        .inNamespace("app-a")
        .resource(
            new ServiceBuilder()
                .withNewMetadata()
                .withName("web")
                .endMetadata()
                .withNewSpec()
                .withType("NodePort")
                .withClusterIP("10.96.0.15")
                .withClusterIPs("10.96.0.15")
                .addToSelector("app", "web")
                .addNewPort()
                .withPort(80)
                .withNodePort(30080)
                .endPort()
                .endSpec()
                .build())
        .create();
    client
        .serviceAccounts()
        .inNamespace("app-a")
        .resource(
            new ServiceAccountBuilder().withNewMetadata().withName("runner").endMetadata().build())
        .create();
    client
        .rbac()
        .roles()
        .inNamespace("app-a")
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("reader")
                .endMetadata()
                .addNewRule()
                .withApiGroups("")
                .withResources("configmaps")
                .withVerbs("get")
                .endRule()
                .build())
        .create();
    client
        .rbac()
        .roleBindings()
        .inNamespace("app-a")
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("reader")
                .endMetadata()
                .withNewRoleRef()
                .withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role")
                .withName("reader")
                .endRoleRef()
                .addNewSubject()
                .withKind("ServiceAccount")
                .withName("runner")
                .withNamespace("app-a")
                .endSubject()
                .build())
        .create();
    client
        .apps()
        .deployments()
        .inNamespace("app-b")
        .resource(
            new DeploymentBuilder()
                .withNewMetadata()
                .withName("web")
                .endMetadata()
                .withNewSpec()
                .withReplicas(2)
                .withNewSelector()
                .addToMatchLabels("app", "web")
                .endSelector()
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels("app", "web")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("web")
                .withImage("nginx:1.27")
                .endContainer()
                .endSpec()
                .endTemplate()
                .endSpec()
                .withNewStatus()
                .withReplicas(2)
                .endStatus()
                .build())
        .create();
  }

  static void clean(KubernetesClient client) {
    client.resources(Restore.class).inAnyNamespace().delete();
    client.resources(Backup.class).inAnyNamespace().delete();
    client.resources(dev.stele.k8s.api.PodVolumeRestore.class).inAnyNamespace().delete();
    client.resources(BackupStorageLocation.class).inAnyNamespace().delete();
    client.resources(BackupStorageLocationRepository.class).inAnyNamespace().delete();
    client.secrets().inAnyNamespace().delete();
    client.configMaps().inAnyNamespace().delete();
    client.services().inAnyNamespace().delete();
    client.serviceAccounts().inAnyNamespace().delete();
    client.rbac().roles().inAnyNamespace().delete();
    client.rbac().roleBindings().inAnyNamespace().delete();
    client.apps().deployments().inAnyNamespace().delete();
    client.pods().inAnyNamespace().delete();
    client.persistentVolumeClaims().inAnyNamespace().delete();
    client.namespaces().delete();
    client.v1().events().inAnyNamespace().delete();
  }

  @AfterEach
  void writeOnce() {
    op.assertWriteOnce();
  }

  void configMap(String ns, String name, String mode, Map<String, String> labels) {
    client
        .configMaps()
        .inNamespace(ns)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(labels)
                .endMetadata()
                .addToData("mode", mode)
                .build())
        .createOr(r -> r.update());
  }

  Backup backupOfTwoNamespaces() {
    var spec = new BackupSpec();
    spec.includedNamespaces = List.of("app-a", "app-b");
    spec.ttl = "24h";
    Backup b = op.backup("nightly", spec);
    assertThat(b.getStatus().phase).as(b.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    assertThat(b.getStatus().items).isEqualTo(ITEMS);
    return b;
  }

  static RestoreSpec from(String backup) {
    var spec = new RestoreSpec();
    spec.backupName = backup;
    return spec;
  }

  static long version(HasMetadata o) {
    return Long.parseLong(o.getMetadata().getResourceVersion());
  }

  RestoreDocument resultsOf(Restore restore) throws Exception {
    try (Repository repo = op.openRepository()) {
      List<SnapshotCatalog.Entry> found = op.results(repo, restore);
      assertThat(found).hasSize(1);
      assertThat(found.get(0).id().hex()).isEqualTo(restore.getStatus().resultsSnapshotID);
      return Results.read(repo, found.get(0).manifest());
    }
  }

  String logOf(Restore restore) throws Exception {
    try (Repository repo = op.openRepository()) {
      var manifest = op.results(repo, restore).get(0).manifest();
      var browser = new SnapshotBrowser(repo);
      var out = new ByteArrayOutputStream();
      browser.cat(browser.find(manifest, RestoreDocument.LOG), out);
      return out.toString(StandardCharsets.UTF_8);
    }
  }

  @Test
  void restoresTwoNamespacesIntoMappedOnesInDependencyOrderStrippedOfServerFields()
      throws Exception {
    Backup backup = backupOfTwoNamespaces();
    var spec = from("nightly");
    spec.namespaceMapping = Map.of("app-a", "new-a", "app-b", "new-b");
    op.restore("copy", spec);

    Restore done = op.pass("copy");
    RestoreStatus s = done.getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.itemsRestored).isEqualTo(ITEMS);
    assertThat(s.itemsSkipped).isZero();
    assertThat(s.errors).isZero();
    assertThat(s.warnings).isZero();
    assertThat(s.startTimestamp).isNotNull();
    assertThat(s.completionTimestamp).isNotNull();
    assertThat(op.eventReasons("copy")).containsExactly(RunPhase.COMPLETED.value());

    // Objects in the mapped namespaces, labelled with the restore, with the source's labels.
    var ns = client.namespaces().withName("new-a").get();
    assertThat(ns.getMetadata().getLabels())
        .containsEntry("team", "app-a")
        .containsEntry(SteleApi.RESTORE_NAME_LABEL, "copy")
        .containsEntry(SteleApi.BACKUP_NAME_LABEL, "nightly");
    ConfigMap settings = client.configMaps().inNamespace("new-a").withName("settings").get();
    assertThat(settings.getData()).containsEntry("mode", "fast");
    assertThat(client.secrets().inNamespace("new-b").withName("token").get()).isNotNull();
    var deployment = client.apps().deployments().inNamespace("new-b").withName("web").get();
    assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
    assertThat(deployment.getStatus()).isNull();
    // Stripped: owner references, a Service's allocated addresses and ports.
    assertThat(
            client
                .configMaps()
                .inNamespace("new-a")
                .withName("owned")
                .get()
                .getMetadata()
                .getOwnerReferences())
        .isNullOrEmpty();
    assertThat(
            client
                .configMaps()
                .inNamespace("app-a")
                .withName("owned")
                .get()
                .getMetadata()
                .getOwnerReferences())
        .hasSize(1);
    var service = client.services().inNamespace("new-a").withName("web").get();
    assertThat(service.getSpec().getClusterIP()).isNull();
    assertThat(service.getSpec().getClusterIPs()).isNullOrEmpty();
    assertThat(service.getSpec().getPorts().get(0).getNodePort()).isNull();
    assertThat(service.getSpec().getPorts().get(0).getPort()).isEqualTo(80);
    // Remapped: a binding's subject follows its namespace.
    var binding = client.rbac().roleBindings().inNamespace("new-a").withName("reader").get();
    assertThat(binding.getSubjects().get(0).getNamespace()).isEqualTo("new-a");
    // Nothing from the namespace the backup left out.
    assertThat(client.namespaces().withName("other").get()).isNotNull();
    assertThat(client.configMaps().inNamespace("new-a").list().getItems()).hasSize(2);

    // Dependency order, as the API server saw it: each type's objects all before the next type's.
    List<List<? extends HasMetadata>> inOrder =
        List.of(
            Stream.of("new-a", "new-b").map(n -> client.namespaces().withName(n).get()).toList(),
            client.serviceAccounts().inNamespace("new-a").list().getItems(),
            all(
                client.configMaps().inNamespace("new-a").list().getItems(),
                client.configMaps().inNamespace("new-b").list().getItems()),
            all(
                client.secrets().inNamespace("new-a").list().getItems(),
                client.secrets().inNamespace("new-b").list().getItems()),
            client.services().inNamespace("new-a").list().getItems(),
            client.rbac().roles().inNamespace("new-a").list().getItems(),
            client.rbac().roleBindings().inNamespace("new-a").list().getItems(),
            client.apps().deployments().inNamespace("new-b").list().getItems());
    long last = 0;
    for (List<? extends HasMetadata> type : inOrder) {
      assertThat(type).isNotEmpty();
      long first = type.stream().mapToLong(RestoreOperatorTest::version).min().orElseThrow();
      assertThat(first).as(type.get(0).getKind()).isGreaterThan(last);
      last = type.stream().mapToLong(RestoreOperatorTest::version).max().orElseThrow();
    }

    // Results: written once, with every object, and the log.
    RestoreDocument results = resultsOf(done);
    assertThat(results.phase()).isEqualTo(RunPhase.COMPLETED.value());
    assertThat(results.backupName()).isEqualTo("nightly");
    assertThat(results.backupSnapshot()).isEqualTo(backup.getStatus().snapshotID);
    assertThat(results.objects()).hasSize(ITEMS);
    assertThat(results.objects())
        .allSatisfy(i -> assertThat(i.result()).isEqualTo(RestoreDocument.RESTORED));
    assertThat(results.objects().get(0).resource()).isEqualTo("namespaces");
    assertThat(results.objects())
        .anySatisfy(
            i -> {
              assertThat(i.resource()).isEqualTo("deployments.apps");
              assertThat(i.namespace()).isEqualTo("app-b");
              assertThat(i.restoredAs()).isEqualTo("new-b/web");
            });
    assertThat(results.note()).isNull();
    assertThat(logOf(done)).contains("restored configmaps app-a/settings as new-a/settings");

    // Later passes write nothing.
    int snapshots;
    try (Repository repo = op.openRepository()) {
      snapshots = repo.list(BlobKind.SNAPSHOT).size();
    }
    assertThat(op.pass("copy").getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    try (Repository repo = op.openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).hasSize(snapshots);
    }
  }

  @SafeVarargs
  static List<HasMetadata> all(List<? extends HasMetadata>... lists) {
    List<HasMetadata> all = new ArrayList<>();
    for (var l : lists) {
      all.addAll(l);
    }
    return all;
  }

  @Test
  void filtersChooseNamespacesTypesAndLabels() throws Exception {
    backupOfTwoNamespaces();
    // One namespace, without its Namespace object, secrets and roles.
    var spec = from("nightly");
    spec.includedNamespaces = List.of("app-a");
    spec.excludedResources = List.of("secrets", "roles.rbac.authorization.k8s.io");
    spec.includeClusterResources = false;
    spec.namespaceMapping = Map.of("app-a", "f-a", "app-b", "f-b");
    op.restore("one", spec);
    RestoreStatus s = op.pass("one").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    // 2 configmaps, service, service account, role binding
    assertThat(s.itemsRestored).isEqualTo(5);
    assertThat(client.configMaps().inNamespace("f-a").list().getItems()).hasSize(2);
    assertThat(client.secrets().inNamespace("f-a").list().getItems()).isEmpty();
    assertThat(client.rbac().roles().inNamespace("f-a").list().getItems()).isEmpty();
    assertThat(client.rbac().roleBindings().inNamespace("f-a").list().getItems()).hasSize(1);
    // The namespace was created bare: not the backed-up Namespace object.
    var fa = client.namespaces().withName("f-a").get();
    assertThat(fa.getMetadata().getLabels()).doesNotContainKey("team");
    assertThat(client.namespaces().withName("f-b").get()).isNull();
    assertThat(resultsOf(op.get(Restore.class, "one")).objects())
        .allSatisfy(i -> assertThat(i.namespace()).isEqualTo("app-a"));

    // One type, by label, from both namespaces: only app-a's settings carry keep=yes.
    var labelled = from("nightly");
    labelled.includedResources = List.of("configmaps");
    labelled.labelSelector = new LabelSelectorBuilder().addToMatchLabels("keep", "yes").build();
    labelled.namespaceMapping = Map.of("app-a", "l-a", "app-b", "l-b");
    op.restore("labelled", labelled);
    s = op.pass("labelled").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.itemsRestored).isEqualTo(1);
    assertThat(client.configMaps().inNamespace("l-a").withName("settings").get()).isNotNull();
    assertThat(client.namespaces().withName("l-b").get()).isNull();

    // Excluded namespaces, and an unsupported selector fails with one line.
    var excluded = from("nightly");
    excluded.excludedNamespaces = List.of("app-a");
    excluded.namespaceMapping = Map.of("app-b", "x-b");
    op.restore("excluded", excluded);
    s = op.pass("excluded").getStatus();
    // app-b: namespace, configmap, secret, deployment
    assertThat(s.itemsRestored).isEqualTo(4);
    assertThat(client.apps().deployments().inNamespace("x-b").withName("web").get()).isNotNull();

    // Set-based: settings of app-b (keep=no), and the labelless objects, as a server selects.
    var expressions = from("nightly");
    expressions.includedResources = List.of("configmaps");
    expressions.labelSelector = LabelSelectors.parse("keep notin (yes)");
    expressions.namespaceMapping = Map.of("app-a", "e-a", "app-b", "e-b");
    op.restore("expressions", expressions);
    s = op.pass("expressions").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(client.configMaps().inNamespace("e-a").withName("settings").get()).isNull();
    assertThat(client.configMaps().inNamespace("e-a").withName("owned").get()).isNotNull();
    assertThat(client.configMaps().inNamespace("e-b").withName("settings").get()).isNotNull();

    // Or-selectors: either one selects.
    var or = from("nightly");
    or.includedResources = List.of("configmaps");
    or.orLabelSelectors = LabelSelectors.parseAlternatives("keep=yes or keep in (no)");
    or.namespaceMapping = Map.of("app-a", "o-a", "app-b", "o-b");
    op.restore("or", or);
    s = op.pass("or").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.itemsRestored).isEqualTo(2);
    assertThat(client.configMaps().inNamespace("o-a").withName("owned").get()).isNull();

    // Both together fail with one line, as Velero refuses them.
    var both = from("nightly");
    both.labelSelector = LabelSelectors.parse("keep=yes");
    both.orLabelSelectors = List.of(LabelSelectors.parse("keep=no"));
    op.restore("both", both);
    Restore refused = op.pass("both");
    assertThat(refused.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(refused.getStatus().message)
        .isEqualTo("spec.labelSelector and spec.orLabelSelectors cannot both be set: use one");
  }

  @Test
  void existingObjectsAreLeftAloneOrWithUpdateReplaced() throws Exception {
    backupOfTwoNamespaces();
    configMap("app-a", "settings", "slow", Map.of("keep", "yes"));
    String before =
        client
            .configMaps()
            .inNamespace("app-a")
            .withName("settings")
            .get()
            .getMetadata()
            .getResourceVersion();

    var keep = from("nightly");
    keep.includedNamespaces = List.of("app-a");
    Restore kept = op.restore("keep", keep);
    RestoreStatus s = op.pass("keep").getStatus();
    // Everything of app-a exists: namespace, 2 configmaps, secret, service, account, role, binding.
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.itemsRestored).isZero();
    assertThat(s.itemsSkipped).isEqualTo(8);
    assertThat(s.warnings).isEqualTo(8);
    assertThat(s.message).contains("exists in the cluster; left as it is");
    var settings = client.configMaps().inNamespace("app-a").withName("settings").get();
    assertThat(settings.getData()).containsEntry("mode", "slow");
    assertThat(settings.getMetadata().getResourceVersion()).isEqualTo(before);
    assertThat(resultsOf(op.get(Restore.class, "keep")).objects())
        .allSatisfy(i -> assertThat(i.result()).isEqualTo(RestoreDocument.SKIPPED));
    assertThat(kept.getMetadata().getUid()).isNotNull();

    var update = from("nightly");
    update.includedNamespaces = List.of("app-a");
    update.existingResourcePolicy = "update";
    op.restore("overwrite", update);
    s = op.pass("overwrite").getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.itemsRestored).isEqualTo(8);
    assertThat(s.itemsSkipped).isZero();
    settings = client.configMaps().inNamespace("app-a").withName("settings").get();
    assertThat(settings.getData()).containsEntry("mode", "fast");
    assertThat(settings.getMetadata().getLabels())
        .containsEntry(SteleApi.RESTORE_NAME_LABEL, "overwrite");
    assertThat(version(settings)).isGreaterThan(Long.parseLong(before));
    assertThat(resultsOf(op.get(Restore.class, "overwrite")).objects())
        .allSatisfy(i -> assertThat(i.result()).isEqualTo(RestoreDocument.UPDATED));
  }

  @Test
  void aMissingFailedOrUnfinishedBackupIsReportedAndNothingIsWritten() throws Exception {
    op.restore("typo", from("nope"));
    Restore typo = op.pass("typo");
    assertThat(typo.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(typo.getStatus().message).isEqualTo("backup nope does not exist in namespace " + NS);
    assertThat(op.eventReasons("typo")).containsExactly(RunPhase.FAILED.value());

    op.restore("unnamed", from(null));
    assertThat(op.pass("unnamed").getStatus().message).isEqualTo("spec.backupName is required");

    // A backup still running is waited for, and its failure fails the restore.
    Backup running = backupWithStatus("running", RunPhase.IN_PROGRESS);
    op.restore("early", from("running"));
    Restore early = op.pass("early");
    assertThat(early.getStatus().phase).isNull();
    assertThat(early.getStatus().message)
        .isEqualTo("waiting for backup running to finish (phase InProgress)");
    running.getStatus().phase = RunPhase.FAILED;
    client.resource(running).updateStatus();
    early = op.pass("early");
    assertThat(early.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(early.getStatus().message)
        .isEqualTo("backup running failed: there is nothing to restore");

    // Completed, but naming no snapshot.
    backupWithStatus("hollow", RunPhase.COMPLETED);
    op.restore("hollow", from("hollow"));
    Restore hollow = op.pass("hollow");
    assertThat(hollow.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(hollow.getStatus().message)
        .isEqualTo("backup hollow is Completed but names no snapshot and repository");
    assertThat(op.eventReasons("hollow")).containsExactly(RunPhase.FAILED.value());

    // Failed is final, and no restore wrote anything.
    assertThat(op.pass("typo").getStatus().phase).isEqualTo(RunPhase.FAILED);
    try (Repository repo = op.openRepository()) {
      assertThat(repo.list(BlobKind.SNAPSHOT)).isEmpty();
    }
  }

  Backup backupWithStatus(String name, RunPhase phase) {
    var b = new Backup();
    b.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(name)
            .withNamespace(NS)
            .build());
    b.setSpec(new BackupSpec());
    b = client.resource(b).create();
    var status = new BackupStatus();
    status.phase = phase;
    b.setStatus(status);
    return client.resource(b).updateStatus();
  }

  @Test
  void resultsAreWrittenOnceEvenWhenTheOperatorStopsBeforeTheStatusSaysSo() throws Exception {
    backupOfTwoNamespaces();
    var spec = from("nightly");
    spec.namespaceMapping = Map.of("app-a", "r-a", "app-b", "r-b");
    op.restore("twice", spec);
    Restore done = op.pass("twice");
    assertThat(done.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    String results = done.getStatus().resultsSnapshotID;
    assertThat(results).isNotNull();

    // The operator stopped after writing the results, before the status said Completed.
    var status = new RestoreStatus();
    status.phase = RunPhase.IN_PROGRESS;
    status.startTimestamp = done.getStatus().startTimestamp;
    done.setStatus(status);
    client.resource(done).updateStatus();
    op.restart();
    Restore after = op.pass("twice");
    assertThat(after.getStatus().phase).isEqualTo(RunPhase.COMPLETED);
    assertThat(after.getStatus().resultsSnapshotID).isEqualTo(results);
    assertThat(after.getStatus().itemsRestored).isEqualTo(ITEMS);
    assertThat(after.getStatus().message).contains("completed from its results");
    resultsOf(after);

    // Stopped before the results: Failed, as Velero does, and still no results.
    op.restore("cut", spec);
    Restore cut = op.get(Restore.class, "cut");
    status = new RestoreStatus();
    status.phase = RunPhase.IN_PROGRESS;
    cut.setStatus(status);
    client.resource(cut).updateStatus();
    cut = op.pass("cut");
    assertThat(cut.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(cut.getStatus().message).isEqualTo(RestoreReconciler.RESTARTED);
    assertThat(op.pass("cut").getStatus().phase).isEqualTo(RunPhase.FAILED);
    try (Repository repo = op.openRepository()) {
      assertThat(op.results(repo, cut)).isEmpty();
    }
  }

  @Test
  void aRefusedResultsWriteEndsTheRestoreWithAWarning() throws Exception {
    backupOfTwoNamespaces();
    op.refuse = "snapshots/";
    var spec = from("nightly");
    spec.namespaceMapping = Map.of("app-a", "w-a", "app-b", "w-b");
    op.restore("readonly", spec);
    Restore done = op.pass("readonly");
    RestoreStatus s = done.getStatus();
    assertThat(s.phase).as(s.message).isEqualTo(RunPhase.COMPLETED);
    assertThat(s.itemsRestored).isEqualTo(ITEMS);
    assertThat(s.resultsSnapshotID).isNull();
    assertThat(s.warnings).isEqualTo(1);
    assertThat(s.message)
        .contains("the results were not stored in the repository")
        .contains("storage refused to create snapshots/");
    assertThat(op.eventReasons("readonly"))
        .contains("ResultsNotStored", RunPhase.COMPLETED.value());
    assertThat(client.configMaps().inNamespace("w-a").withName("settings").get()).isNotNull();
    op.refuse = null;
    assertThat(op.pass("readonly").getStatus().resultsSnapshotID).isNull();
    try (Repository repo = op.openRepository()) {
      assertThat(op.results(repo, done)).isEmpty();
    }
  }

  @Test
  void theWaitImageIsTheOperatorsOwnReadFromItsPod() throws Exception {
    client
        .pods()
        .inNamespace(NS)
        .resource(
            new PodBuilder()
                .withNewMetadata()
                .withName("stele-operator-7d9f")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("sidecar")
                .withImage("proxy:1")
                .endContainer()
                .addNewContainer()
                .withName("operator")
                .withImage("registry.example/team/stele:1.2")
                .endContainer()
                .endSpec()
                .build())
        .create();
    assertThat(OwnImage.of(client, NS, "stele-operator-7d9f", "fallback"))
        .isEqualTo("registry.example/team/stele:1.2");
    assertThat(OwnImage.of(client, NS, "gone", "fallback")).isEqualTo("fallback");
    assertThat(OwnImage.of(client, NS, null, "fallback")).isEqualTo("fallback");
    // The Deployment gives the operator what it needs to find its pod.
    String operator = Files.readString(Path.of("..", "deploy", "operator.yaml"));
    assertThat(operator)
        .contains("- name: operator\n")
        .contains("name: POD_NAME\n              valueFrom: {fieldRef: {fieldPath: metadata.name}}")
        .contains(
            "name: POD_NAMESPACE\n              valueFrom: {fieldRef: {fieldPath: metadata.namespace}}");
  }
}
