package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.cli.Cli;
import dev.stele.cli.ExitCode;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.SchedulePhase;
import dev.stele.k8s.api.ScheduleSpec;
import dev.stele.k8s.api.ScheduleStatus;
import dev.stele.k8s.api.SteleApi;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stele schedule describe|pause|unpause|delete}, {@code backup create --from-schedule} and
 * the cron check of {@code schedule create}, against fabric8's CRUD mock API server.
 */
@EnableKubernetesMockClient(crud = true)
class ScheduleCommandsTest {
  KubernetesClient client;
  @TempDir Path dir;
  ClusterFixture k8s;

  @BeforeEach
  void setUp() throws IOException {
    k8s = new ClusterFixture(client, dir);
  }

  private Schedule schedule(String name, Boolean paused) {
    ScheduleSpec spec = new ScheduleSpec();
    spec.schedule = "0 3 * * *";
    spec.paused = paused;
    spec.template = new BackupSpec();
    spec.template.includedNamespaces = List.of("shop");
    spec.template.ttl = "168h";
    Schedule s = new Schedule();
    s.setMetadata(new ObjectMetaBuilder().withName(name).build());
    s.setSpec(spec);
    return k8s.create(s);
  }

  @Test
  void scheduleCreateRefusesAnExpressionTheOperatorWouldRefuse() {
    for (String cron : List.of("61 * * * *", "0 0 31 2 *", "0 25 * * *")) {
      Cli.Run run = k8s.run("schedule", "create", "s", "--schedule", cron);

      assertThat(run.exitCode()).as(cron).isEqualTo(ExitCode.USAGE);
      assertThat(run.errorLines()).as(cron).hasSize(1);
      assertThat(run.stderr()).as(cron).startsWith("stele: --schedule '" + cron + "' ");
    }
    assertThat(k8s.list(Schedule.class)).isEmpty();
    Cli.Run yearly = k8s.run("schedule", "create", "yearly", "--schedule", "@yearly");
    assertThat(yearly.exitCode()).as(yearly.stderr()).isZero();
  }

  @Test
  void describeShowsTheTemplateAndTheLastBackup() {
    Schedule s = schedule("daily", null);
    ScheduleStatus st = new ScheduleStatus();
    st.phase = SchedulePhase.ENABLED;
    st.lastBackupName = "daily-20300101030000";
    st.lastBackup = Instant.now().minusSeconds(3600 * 5 + 30).toString();
    st.nextBackup = Instant.now().plusSeconds(3600 * 19 + 30).toString();
    s.setStatus(st);
    k8s.updateStatus(s);

    Cli.Run run = k8s.run("schedule", "describe", "daily");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout().lines())
        .contains(
            "Name:         daily",
            "Phase:   Enabled",
            "Paused:  false",
            "Schedule:  0 3 * * * (UTC)",
            "Backup template:",
            "  Included:  shop",
            "TTL:                           168h",
            "Storage location:              default",
            "Last backup:  daily-20300101030000 (5h ago)",
            "Next backup:  in 19h");

    Cli.Run yaml = k8s.run("schedule", "describe", "daily", "-o", "yaml");
    assertThat(yaml.exitCode()).as(yaml.stderr()).isZero();
    assertThat(yaml.stdout()).contains("kind: \"Schedule\"").contains("lastBackupName:");
    Cli.Run wide = k8s.run("schedule", "describe", "daily", "-o", "wide");
    assertThat(wide.exitCode()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void pauseAndUnpauseSetSpecPaused() {
    schedule("daily", null);
    schedule("hourly", null);

    Cli.Run pause = k8s.run("schedule", "pause", "daily");
    assertThat(pause.exitCode()).as(pause.stderr()).isZero();
    assertThat(pause.stdout()).isEqualTo("Schedule \"daily\" paused.\n");
    assertThat(k8s.get(Schedule.class, "daily").getSpec().paused).isTrue();
    assertThat(k8s.get(Schedule.class, "hourly").getSpec().paused).isNull();
    assertThat(k8s.get(Schedule.class, "daily").getSpec().template.ttl).isEqualTo("168h");

    Cli.Run all = k8s.run("schedule", "pause", "--all");
    assertThat(all.stdout())
        .isEqualTo("Schedule \"daily\" is already paused.\nSchedule \"hourly\" paused.\n");
    assertThat(k8s.get(Schedule.class, "hourly").getSpec().paused).isTrue();

    Cli.Run unpause = k8s.run("schedule", "unpause", "daily", "hourly");
    assertThat(unpause.exitCode()).as(unpause.stderr()).isZero();
    assertThat(k8s.get(Schedule.class, "daily").getSpec().paused).isFalse();
    assertThat(k8s.get(Schedule.class, "hourly").getSpec().paused).isFalse();

    Cli.Run missing = k8s.run("schedule", "pause", "daily", "nope");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(missing.errorLines()).containsExactly("stele: no schedule nope in namespace stele");
    assertThat(k8s.get(Schedule.class, "daily").getSpec().paused).isFalse();
    assertThat(k8s.run("schedule", "pause").exitCode()).isEqualTo(ExitCode.USAGE);
  }

  @Test
  void deleteNeedsConfirmationAndLeavesTheBackups() {
    schedule("daily", null);
    k8s.backup("daily-20300101030000", null, null);

    Cli.Run unconfirmed = k8s.run("schedule", "delete", "daily");
    assertThat(unconfirmed.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(k8s.get(Schedule.class, "daily")).isNotNull();

    k8s.cli.terminal = true;
    k8s.cli.typed.add("n");
    assertThat(k8s.run("schedule", "delete", "daily").stdout()).contains("Nothing deleted.");
    assertThat(k8s.get(Schedule.class, "daily")).isNotNull();

    Cli.Run run = k8s.run("schedule", "delete", "daily", "--confirm");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout())
        .isEqualTo("Schedule \"daily\" deleted; its backups stay until deleted or expired.\n");
    assertThat(k8s.get(Schedule.class, "daily")).isNull();
    assertThat(k8s.get(Backup.class, "daily-20300101030000")).isNotNull();
  }

  @Test
  void backupFromScheduleTakesTheTemplateTheNameAndTheLabel() {
    schedule("daily", null);
    String before = stamp();

    Cli.Run run = k8s.run("backup", "create", "--from-schedule", "daily");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<Backup> backups = k8s.list(Backup.class);
    assertThat(backups).hasSize(1);
    Backup b = backups.get(0);
    assertThat(b.getMetadata().getName()).matches("daily-\\d{14}");
    assertThat(b.getMetadata().getName().substring("daily-".length())).isBetween(before, stamp());
    assertThat(b.getMetadata().getLabels())
        .isEqualTo(Map.of(SteleApi.SCHEDULE_NAME_LABEL, "daily"));
    assertThat(b.getSpec().includedNamespaces).containsExactly("shop");
    assertThat(b.getSpec().ttl).isEqualTo("168h");
    assertThat(run.stdout())
        .contains("Backup request \"" + b.getMetadata().getName() + "\" submitted");

    Cli.Run named = k8s.run("backup", "create", "now", "--from-schedule", "daily");
    assertThat(named.exitCode()).as(named.stderr()).isZero();
    assertThat(k8s.get(Backup.class, "now").getMetadata().getLabels())
        .containsEntry(SteleApi.SCHEDULE_NAME_LABEL, "daily");

    Cli.Run mixed = k8s.run("backup", "create", "x", "--from-schedule", "daily", "--ttl", "1h");
    assertThat(mixed.exitCode()).isEqualTo(ExitCode.USAGE);
    Cli.Run missing = k8s.run("backup", "create", "--from-schedule", "nope");
    assertThat(missing.exitCode()).isEqualTo(ExitCode.NOT_FOUND);
    assertThat(missing.errorLines())
        .containsExactly("stele: schedule nope does not exist in namespace stele");
    Cli.Run unnamed = k8s.run("backup", "create");
    assertThat(unnamed.exitCode()).isEqualTo(ExitCode.USAGE);
    assertThat(k8s.list(Backup.class)).hasSize(2);
  }

  private static String stamp() {
    return DateTimeFormatter.ofPattern("yyyyMMddHHmmss")
        .withZone(ZoneOffset.UTC)
        .format(Instant.now());
  }
}
