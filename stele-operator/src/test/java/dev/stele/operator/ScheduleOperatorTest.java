package dev.stele.operator;

import static dev.stele.operator.OperatorFixture.NS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.RunPhase;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.SchedulePhase;
import dev.stele.k8s.api.ScheduleSpec;
import dev.stele.k8s.api.ScheduleStatus;
import dev.stele.k8s.api.SteleApi;
import dev.stele.operator.schedule.ScheduleReconciler;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Schedules as the clock moves: the schedule reconciler called directly, one pass at a time. */
@EnableKubernetesMockClient(crud = true)
class ScheduleOperatorTest {
  static KubernetesClient client;
  static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  @TempDir Path base;
  OperatorFixture op;
  ScheduleReconciler schedules;

  @BeforeEach
  void setUp() throws IOException {
    Lifecycle.clean(client);
    Files.createDirectories(base.resolve("bucket"));
    op = new OperatorFixture(client);
    Lifecycle.world(op, Lifecycle.location(base, null, null));
    schedules = new ScheduleReconciler(client, Lifecycle.settings(op));
  }

  @AfterEach
  void writeOnce() {
    op.assertWriteOnce();
  }

  Schedule create(String name, String cron) {
    var s = new Schedule();
    s.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    var spec = new ScheduleSpec();
    spec.schedule = cron;
    spec.template = Lifecycle.appSpec("24h");
    s.setSpec(spec);
    return client.resource(s).create();
  }

  Schedule schedule(String name) {
    return client.resources(Schedule.class).inNamespace(NS).withName(name).get();
  }

  /** One pass; returns when the reconciler asked to look again. */
  Duration pass(String name) {
    return schedules.reconcile(schedule(name));
  }

  List<String> backupsOf(String schedule) {
    return client
        .resources(Backup.class)
        .inNamespace(NS)
        .withLabel(SteleApi.SCHEDULE_NAME_LABEL, schedule)
        .list()
        .getItems()
        .stream()
        .map(b -> b.getMetadata().getName())
        .sorted()
        .toList();
  }

  /** The first whole hour after the Schedule's creation. */
  Instant firstHour(Schedule s) {
    return Instant.parse(s.getMetadata().getCreationTimestamp())
        .truncatedTo(ChronoUnit.HOURS)
        .plus(Duration.ofHours(1));
  }

  @Test
  void createsABackupAtEachTimeAsTheClockMoves() {
    Schedule s = create("hourly", "0 * * * *");
    Instant first = firstHour(s);
    op.clock.set(first.minus(Duration.ofMinutes(1)));

    Duration wait = pass("hourly");
    assertThat(backupsOf("hourly")).isEmpty();
    assertThat(wait).isEqualTo(Duration.ofMinutes(1));
    ScheduleStatus status = schedule("hourly").getStatus();
    assertThat(status.phase).isEqualTo(SchedulePhase.ENABLED);
    assertThat(status.nextBackup).isEqualTo(first.toString());
    assertThat(status.lastBackup).isNull();

    op.clock.set(first.plusSeconds(30));
    assertThat(pass("hourly")).isEqualTo(Duration.ofMinutes(59).plusSeconds(30));
    String name = "hourly-" + STAMP.format(first);
    assertThat(backupsOf("hourly")).containsExactly(name);
    Backup made = op.backup(name);
    assertThat(made.getSpec().includedNamespaces).containsExactly("app");
    assertThat(made.getSpec().ttl).isEqualTo("24h");
    status = schedule("hourly").getStatus();
    assertThat(status.lastBackup).isEqualTo(first.toString());
    assertThat(status.lastBackupName).isEqualTo(name);
    assertThat(status.nextBackup).isEqualTo(first.plus(Duration.ofHours(1)).toString());
    assertThat(op.eventReasons("hourly")).containsExactly("BackupCreated");

    // The same time again, and later within the hour: nothing new.
    pass("hourly");
    op.clock.set(first.plus(Duration.ofMinutes(59)));
    pass("hourly");
    assertThat(backupsOf("hourly")).containsExactly(name);

    op.clock.set(first.plus(Duration.ofHours(1)));
    pass("hourly");
    assertThat(backupsOf("hourly"))
        .containsExactly(name, "hourly-" + STAMP.format(first.plus(Duration.ofHours(1))));

    // The Backups it makes are ordinary ones.
    assertThat(op.reconcileBackup(name).getStatus().phase).isEqualTo(RunPhase.COMPLETED);
  }

  @Test
  void oneBackupAfterALongOutageNotOnePerMissedTime() {
    Schedule s = create("hourly", "0 * * * *");
    Instant first = firstHour(s);
    op.clock.set(first);
    pass("hourly");
    assertThat(backupsOf("hourly")).hasSize(1);

    // The operator was down for three days and a half.
    Instant back = first.plus(Duration.ofDays(3)).plus(Duration.ofMinutes(12 * 60 + 17));
    op.clock.set(back);
    pass("hourly");
    Instant latest = back.truncatedTo(ChronoUnit.HOURS);
    assertThat(backupsOf("hourly"))
        .containsExactly("hourly-" + STAMP.format(first), "hourly-" + STAMP.format(latest));
    ScheduleStatus status = schedule("hourly").getStatus();
    assertThat(status.lastBackup).isEqualTo(latest.toString());
    assertThat(status.nextBackup).isEqualTo(latest.plus(Duration.ofHours(1)).toString());
    pass("hourly");
    assertThat(backupsOf("hourly")).hasSize(2);
  }

  @Test
  void aPassRepeatedForOneTimeFindsItsBackupInsteadOfMakingASecond() {
    Schedule s = create("hourly", "0 * * * *");
    Instant first = firstHour(s);
    String name = "hourly-" + STAMP.format(first);
    // A pass created the Backup and stopped before it wrote the Schedule's status.
    var b = new Backup();
    b.setMetadata(
        new ObjectMetaBuilder()
            .withName(name)
            .withNamespace(NS)
            .withLabels(Map.of(SteleApi.SCHEDULE_NAME_LABEL, "hourly"))
            .build());
    b.setSpec(Lifecycle.appSpec("24h"));
    String uid = client.resource(b).create().getMetadata().getUid();

    op.clock.set(first.plusSeconds(5));
    pass("hourly");
    assertThat(backupsOf("hourly")).containsExactly(name);
    assertThat(op.backup(name).getMetadata().getUid()).isEqualTo(uid);
    assertThat(schedule("hourly").getStatus().lastBackupName).isEqualTo(name);
    assertThat(op.eventReasons("hourly")).doesNotContain("BackupCreated");
  }

  @Test
  void aPausedScheduleMakesNoBackupsAndOneWhenResumed() {
    Schedule s = create("hourly", "0 * * * *");
    s.getSpec().paused = true;
    client.resource(s).update();
    Instant first = firstHour(s);
    op.clock.set(first.plus(Duration.ofHours(5)));
    assertThat(pass("hourly")).isNull();
    assertThat(backupsOf("hourly")).isEmpty();
    assertThat(schedule("hourly").getStatus()).isNull();

    s = schedule("hourly");
    s.getSpec().paused = false;
    client.resource(s).update();
    pass("hourly");
    assertThat(backupsOf("hourly"))
        .containsExactly("hourly-" + STAMP.format(first.plus(Duration.ofHours(5))));
  }

  @Test
  void aBadCronExpressionFailsValidationWithAMessageAndAnEvent() {
    create("typo", "0 25 * * *");
    op.clock.advance(Duration.ofDays(2));
    assertThat(pass("typo")).isNull();
    ScheduleStatus status = schedule("typo").getStatus();
    assertThat(status.phase).isEqualTo(SchedulePhase.FAILED_VALIDATION);
    assertThat(status.message).contains("'0 25 * * *' is not a cron expression").contains("25");
    assertThat(op.eventReasons("typo")).containsExactly(SchedulePhase.FAILED_VALIDATION.value());
    assertThat(backupsOf("typo")).isEmpty();
    // The same answer again adds no second Event.
    pass("typo");
    assertThat(op.eventReasons("typo")).hasSize(1);

    // Fixed: Enabled, with its next time.
    Schedule fixed = schedule("typo");
    fixed.getSpec().schedule = "@daily";
    client.resource(fixed).update();
    pass("typo");
    status = schedule("typo").getStatus();
    assertThat(status.phase).isEqualTo(SchedulePhase.ENABLED);
    assertThat(status.message).isNull();
    assertThat(Instant.parse(status.nextBackup))
        .isEqualTo(op.clock.instant().truncatedTo(ChronoUnit.DAYS).plus(Duration.ofDays(1)));
  }
}
