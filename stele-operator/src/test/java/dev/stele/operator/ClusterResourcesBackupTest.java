package dev.stele.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.testing.ApiServer;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.Tree;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which cluster-scoped objects a Backup takes ({@link ClusterWorld}'s application in namespace
 * {@code app}, against the test API server, whose discovery lists them): Velero's three-valued
 * {@code includeClusterResources}, and the cluster-scoped type filters.
 */
class ClusterResourcesBackupTest {
  static final List<String> NEEDED =
      List.of(
          "apiextensions.k8s.io/customresourcedefinitions/_cluster/widgets.example.com.json",
          "core/persistentvolumes/_cluster/pv-data.json",
          "rbac.authorization.k8s.io/clusterrolebindings/_cluster/db-reader.json",
          "rbac.authorization.k8s.io/clusterroles/_cluster/db-reader.json",
          "storage.k8s.io/storageclasses/_cluster/fast.json");
  static final List<String> UNNEEDED =
      List.of(
          "apiextensions.k8s.io/customresourcedefinitions/_cluster/gadgets.example.com.json",
          "core/persistentvolumes/_cluster/pv-free.json",
          "rbac.authorization.k8s.io/clusterrolebindings/_cluster/unrelated.json",
          "rbac.authorization.k8s.io/clusterroles/_cluster/other-role.json",
          "storage.k8s.io/storageclasses/_cluster/slow.json");

  @TempDir Path base;
  final ApiServer server = new ApiServer();
  final KubernetesClient client = server.client();
  OperatorFixture op;

  @BeforeEach
  void setUp() throws IOException {
    Files.createDirectories(base.resolve("bucket"));
    op = new OperatorFixture(client);
    Lifecycle.world(op, Lifecycle.location(base, null, null));
    ClusterWorld.create(client, "app");
  }

  @AfterEach
  void tearDown() {
    try {
      op.assertWriteOnce();
    } finally {
      client.close();
      server.close();
    }
  }

  Backup backup(String name, BackupSpec spec) {
    op.backup(name, spec);
    Backup done = op.reconcileBackup(name);
    assertThat(done.getStatus().phase).as(done.getStatus().message).isEqualTo(RunPhase.COMPLETED);
    return done;
  }

  /** The paths of the backup's documents under {@code resources/}, cluster-scoped ones only. */
  List<String> clusterScoped(Backup done) throws IOException {
    try (Repository repo = Lifecycle.open(op, base)) {
      String root = new SnapshotCatalog(repo).read(Id.parse(done.getStatus().snapshotID)).tree();
      List<String> paths = new ArrayList<>();
      walk(repo, BackupOperatorTest.find(repo, root, "resources").subtree(), "", paths);
      return paths.stream().filter(p -> p.contains("/_cluster/")).toList();
    }
  }

  String log(Backup done) throws IOException {
    try (Repository repo = Lifecycle.open(op, base)) {
      String root = new SnapshotCatalog(repo).read(Id.parse(done.getStatus().snapshotID)).tree();
      Node log = BackupOperatorTest.find(repo, root, "backup.log");
      return new String(repo.readChunk(log.chunks().get(0)), StandardCharsets.UTF_8);
    }
  }

  static void walk(Repository repo, Id tree, String prefix, List<String> out) throws IOException {
    for (Node n : Tree.decode(tree, repo.readChunk(tree)).nodes()) {
      if (n.kind() == Node.Kind.DIRECTORY) {
        walk(repo, n.subtree(), prefix + n.name() + "/", out);
      } else {
        out.add(prefix + n.name());
      }
    }
  }

  static List<String> all(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  @Test
  void aNamespacedBackupTakesWhatItsObjectsNeedAndSaysWhy() throws IOException {
    Backup done = backup("app", Lifecycle.appSpec("24h"));

    assertThat(clusterScoped(done))
        .containsExactlyInAnyOrderElementsOf(
            all(NEEDED, List.of("core/namespaces/_cluster/app.json")));
    assertThat(log(done))
        .contains("6 of them cluster-scoped, 5 taken because collected objects need them")
        .contains(
            "took customresourcedefinitions.apiextensions.k8s.io widgets.example.com: defines widgets.example.com app/blue")
        .contains("took persistentvolumes pv-data: bound to claim app/data")
        .contains("took storageclasses.storage.k8s.io fast: class of claim app/data")
        .contains(
            "took clusterrolebindings.rbac.authorization.k8s.io db-reader: binds service account app/db")
        .contains(
            "took clusterroles.rbac.authorization.k8s.io db-reader: granted by clusterrolebinding db-reader");
  }

  @Test
  void trueTakesEveryClusterScopedObjectAndFalseNoneButTheNamespace() throws IOException {
    var everything = Lifecycle.appSpec("24h");
    everything.includeClusterResources = true;
    assertThat(clusterScoped(backup("everything", everything)))
        .containsAll(NEEDED)
        .containsAll(UNNEEDED)
        .doesNotContain("core/namespaces/_cluster/other.json");

    var nothing = Lifecycle.appSpec("24h");
    nothing.includeClusterResources = false;
    assertThat(clusterScoped(backup("nothing", nothing)))
        .containsExactly("core/namespaces/_cluster/app.json");
  }

  @Test
  void aBackupOfEveryNamespaceTakesEveryClusterScopedObject() throws IOException {
    assertThat(clusterScoped(backup("all", new BackupSpec())))
        .containsAll(NEEDED)
        .containsAll(UNNEEDED)
        .contains("core/namespaces/_cluster/other.json");

    var none = new BackupSpec();
    none.includeClusterResources = false;
    assertThat(clusterScoped(backup("none", none)))
        .containsExactlyInAnyOrder(
            "core/namespaces/_cluster/app.json",
            "core/namespaces/_cluster/other.json",
            "core/namespaces/_cluster/stele.json");
  }

  @Test
  void clusterScopedTypesAreTakenInFullOrNeverByName() throws IOException {
    var spec = Lifecycle.appSpec("24h");
    spec.includedClusterScopedResources = List.of("storageclasses.storage.k8s.io");
    spec.excludedClusterScopedResources = List.of("persistentvolumes", "clusterroles");

    assertThat(clusterScoped(backup("typed", spec)))
        .containsExactlyInAnyOrder(
            "core/namespaces/_cluster/app.json",
            "apiextensions.k8s.io/customresourcedefinitions/_cluster/widgets.example.com.json",
            "rbac.authorization.k8s.io/clusterrolebindings/_cluster/db-reader.json",
            "storage.k8s.io/storageclasses/_cluster/fast.json",
            "storage.k8s.io/storageclasses/_cluster/slow.json");
  }

  @Test
  void bothWaysOfChoosingClusterScopedObjectsTogetherFailTheBackup() {
    var spec = Lifecycle.appSpec("24h");
    spec.includeClusterResources = true;
    spec.excludedClusterScopedResources = List.of("persistentvolumes");
    op.backup("both", spec);

    Backup done = op.reconcileBackup("both");

    assertThat(done.getStatus().phase).isEqualTo(RunPhase.FAILED);
    assertThat(done.getStatus().message)
        .contains(
            "spec.includeClusterResources cannot be given with"
                + " spec.included/excludedClusterScopedResources");
  }
}
