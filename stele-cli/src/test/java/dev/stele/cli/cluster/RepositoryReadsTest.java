package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.BackupStatus;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import dev.stele.k8s.api.RunPhase;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the cluster commands read from the repository itself, as the operator leaves it: {@code
 * backup download} (checked by extracting the archive with the system's {@code tar}), {@code
 * restore logs}, and {@code describe --details} of backups and restores. They only read: the
 * repository's files are unchanged afterwards.
 */
@EnableKubernetesMockClient(crud = true)
class RepositoryReadsTest {
  private static final String LONG_NAME =
      "a-config-map-whose-name-is-long-enough-" + "x".repeat(60);

  KubernetesClient client;
  @TempDir Path dir;
  ClusterFixture k8s;
  RepositoryFixture repository;
  Map<String, byte[]> resources = new LinkedHashMap<>();
  String backupSnapshot;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
    repository = new RepositoryFixture(k8s, dir);
    resources.put("resources/apps/deployments/shop/web.json", json("{\"kind\":\"Deployment\"}"));
    resources.put("resources/core/configmaps/shop/config.json", json("{\"kind\":\"ConfigMap\"}"));
    resources.put("resources/core/configmaps/shop/" + LONG_NAME + ".json", json("{\"data\":{}}"));
    resources.put("resources/core/namespaces/_cluster/shop.json", json("{\"kind\":\"Namespace\"}"));
    Map<String, byte[]> files = new TreeMap<>(resources);
    files.put("backup.log", json("backed up 4 items\n"));
    files.put("backup.json", json("{\"version\":1}"));
    backupSnapshot = repository.snapshot(files, "backup");
    BackupStatus s = ClusterFixture.status(RunPhase.COMPLETED);
    s.snapshotID = backupSnapshot;
    s.repository = "team-a";
    k8s.backup("nightly", null, s);
  }

  private static byte[] json(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void downloadWritesTheBackupsResourcesAsATarGzThatTarExtracts() throws Exception {
    Map<String, FileTime> before = repository.files();
    Path file = dir.resolve("nightly.tar.gz");

    Cli.Run run = k8s.run("backup", "download", "nightly", "-o", file.toString());

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).isEqualTo("Backup nightly downloaded to " + file + " (4 objects).\n");
    Path out = Files.createDirectory(dir.resolve("extracted"));
    Process tar =
        new ProcessBuilder("tar", "-xzf", file.toString(), "-C", out.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(tar.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(tar.exitValue())
        .as(new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .isZero();
    Map<String, String> extracted = new TreeMap<>();
    try (Stream<Path> all = Files.walk(out)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        extracted.put(out.relativize(p).toString(), Files.readString(p));
      }
    }
    Map<String, String> expected = new TreeMap<>();
    resources.forEach((k, v) -> expected.put(k, new String(v, StandardCharsets.UTF_8)));
    assertThat(extracted).isEqualTo(expected);
    assertThat(Files.getLastModifiedTime(out.resolve("resources/apps/deployments/shop/web.json")))
        .isEqualTo(FileTime.from(RepositoryFixture.MTIME));
    assertThat(repository.files()).isEqualTo(before);

    Cli.Run again = k8s.run("backup", "download", "nightly", "-o", file.toString());
    assertThat(again.exitCode()).isEqualTo(ExitCode.ERROR);
    assertThat(again.errorLines())
        .containsExactly(
            "stele: " + file + " exists: give --force to replace it, or -o another file");
    Cli.Run forced = k8s.run("backup", "download", "nightly", "-o", file.toString(), "--force");
    assertThat(forced.exitCode()).as(forced.stderr()).isZero();
    try (Stream<Path> left = Files.list(dir)) {
      assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".partial"));
    }
  }

  @Test
  void downloadOfABackupWithoutASnapshotIsOneLine() {
    k8s.backup("running", null, ClusterFixture.status(RunPhase.IN_PROGRESS));

    Cli.Run run = k8s.run("backup", "download", "running", "-o", dir.resolve("r.tgz").toString());

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: backup running has no snapshot yet: it is InProgress, and its resources are"
                + " downloadable once it finishes");
    assertThat(dir.resolve("r.tgz")).doesNotExist();
  }

  @Test
  void backupDescribeDetailsListsTheResourcesByType() {
    Cli.Run run = k8s.run("backup", "describe", "nightly", "--details");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    String out = run.stdout();
    assertThat(out.substring(out.indexOf("Resource List:")).lines())
        .containsExactly(
            "Resource List:",
            "  configmaps:",
            "    - shop/" + LONG_NAME,
            "    - shop/config",
            "  deployments.apps:",
            "    - shop/web",
            "  namespaces:",
            "    - shop");
    assertThat(k8s.run("backup", "describe", "nightly").stdout()).doesNotContain("Resource List");
  }

  private Restore restore(String name, String resultsSnapshot, RunPhase phase) {
    Restore r = new Restore();
    r.setMetadata(new ObjectMetaBuilder().withName(name).build());
    r.setSpec(new RestoreSpec());
    r.getSpec().backupName = "nightly";
    r = k8s.create(r);
    RestoreStatus s = new RestoreStatus();
    s.phase = phase;
    s.resultsSnapshotID = resultsSnapshot;
    r.setStatus(s);
    return k8s.updateStatus(r);
  }

  private String results() throws IOException {
    String doc =
        """
        {"version":1,"name":"back","phase":"PartiallyFailed","itemsRestored":2,"itemsSkipped":1,
         "warnings":["configmaps shop/config existed and was left as it was"],
         "errors":["deployments.apps shop/web: admission webhook denied it"],
         "objects":[
          {"resource":"namespaces","name":"shop","restoredAs":"shop-copy","result":"restored"},
          {"resource":"configmaps","namespace":"shop","name":"config",
           "restoredAs":"shop-copy/config","result":"skipped","message":"it exists"},
          {"resource":"deployments.apps","namespace":"shop","name":"web",
           "restoredAs":"shop-copy/web","result":"failed","message":"denied"}]}
        """;
    return repository.snapshot(
        Map.of("restore.json", json(doc), "restore.log", json("restored 2, skipped 1\n")),
        "restore");
  }

  @Test
  void restoreLogsPrintsTheLogOfTheResults() throws IOException {
    restore("back", results(), RunPhase.PARTIALLY_FAILED);
    Map<String, FileTime> before = repository.files();

    Cli.Run run = k8s.run("restore", "logs", "back");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).isEqualTo("restored 2, skipped 1\n");
    assertThat(repository.files()).isEqualTo(before);

    restore("running", null, RunPhase.IN_PROGRESS);
    Cli.Run running = k8s.run("restore", "logs", "running");
    assertThat(running.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(running.errorLines())
        .containsExactly(
            "stele: restore running has no log yet: it is InProgress, and its log is written with"
                + " its results when it finishes");
  }

  @Test
  void restoreLogsWithoutItsBackupSaysWhereTheResultsWere() throws IOException {
    restore("back", results(), RunPhase.COMPLETED);
    client.resource(k8s.get(dev.stele.k8s.api.Backup.class, "nightly")).delete();

    Cli.Run run = k8s.run("restore", "logs", "back");

    assertThat(run.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(run.errorLines())
        .containsExactly(
            "stele: restore back's results are in the repository of backup nightly, which no"
                + " longer exists in namespace stele");
  }

  @Test
  void restoreDescribeDetailsListsWhatHappenedToEachObject() throws IOException {
    restore("back", results(), RunPhase.PARTIALLY_FAILED);

    Cli.Run run = k8s.run("restore", "describe", "back", "--details");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    String out = run.stdout();
    assertThat(out.substring(out.indexOf("Resource List:")).lines())
        .containsExactly(
            "Resource List:",
            "  failed:",
            "    - deployments.apps shop/web as shop-copy/web: denied",
            "  restored:",
            "    - namespaces shop as shop-copy",
            "  skipped:",
            "    - configmaps shop/config as shop-copy/config: it exists",
            "",
            "Warnings:",
            "  configmaps shop/config existed and was left as it was",
            "",
            "Errors:",
            "  deployments.apps shop/web: admission webhook denied it");
  }

  @Test
  void describeAsJsonOrYamlPrintsTheResource() throws IOException {
    restore("back", results(), RunPhase.COMPLETED);

    Cli.Run backup = k8s.run("backup", "describe", "nightly", "-o", "json");
    assertThat(backup.exitCode()).as(backup.stderr()).isZero();
    assertThat(backup.stdout())
        .startsWith("{")
        .contains("\"kind\" : \"Backup\"")
        .contains("\"snapshotID\" : \"" + backupSnapshot + "\"");

    Cli.Run restore = k8s.run("restore", "describe", "back", "-o", "yaml");
    assertThat(restore.exitCode()).as(restore.stderr()).isZero();
    assertThat(restore.stdout()).contains("kind: \"Restore\"").contains("backupName: \"nightly\"");

    Cli.Run table = k8s.run("restore", "describe", "back", "-o", "table");
    assertThat(table.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(table.errorLines())
        .containsExactly("stele: -o table: describe prints text, json or yaml");
  }

  @Test
  void listsOfEveryKindTakeWide() {
    Cli.Run backups = k8s.run("backup", "get", "-o", "wide");
    assertThat(backups.exitCode()).as(backups.stderr()).isZero();
    List<String> lines = backups.stdout().lines().toList();
    assertThat(List.of(lines.get(0).split(" {2,}")))
        .endsWith(
            "REPOSITORY",
            "STORAGE LOCATION",
            "SELECTOR",
            "ITEMS",
            "VOLUMES",
            "SCHEDULE",
            "SNAPSHOT");
    assertThat(List.of(lines.get(1).split(" {2,}")))
        .endsWith("team-a", "default", "<none>", "-", "-", "-", backupSnapshot.substring(0, 8));
    assertThat(k8s.run("backup", "get").stdout().lines().findFirst().orElseThrow())
        .endsWith("REPOSITORY");

    restore("back", null, RunPhase.IN_PROGRESS);
    Cli.Run restores = k8s.run("restore", "get", "-o", "wide");
    assertThat(restores.stdout().lines().findFirst().orElseThrow())
        .endsWith("SELECTOR   RESTORED   SKIPPED   VOLUMES   NAMESPACE MAPPINGS");
    Cli.Run schedules = k8s.run("schedule", "get", "-o", "wide");
    assertThat(schedules.stdout().lines().findFirst().orElseThrow())
        .endsWith("PAUSED   LAST BACKUP NAME   STORAGE LOCATION   NAMESPACES   MESSAGE");
  }
}
