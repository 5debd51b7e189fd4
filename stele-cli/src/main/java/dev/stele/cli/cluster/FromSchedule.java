package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.k8s.api.Backup;
import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.Schedule;
import dev.stele.k8s.api.SteleApi;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/**
 * {@code backup create --from-schedule SCHEDULE}: a Backup made as the Schedule makes its own — its
 * template as the spec, named {@code <schedule>-<yyyyMMddHHmmss>} (UTC) unless named, labelled
 * {@value SteleApi#SCHEDULE_NAME_LABEL} — so it is listed, synced and kept like them.
 */
final class FromSchedule {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss").withZone(ZoneOffset.UTC);

  private FromSchedule() {}

  /**
   * The Backup; a usage failure if {@code options} is not empty (the template says what to back up,
   * as in Velero, where the other options cannot go with {@code --from-schedule}).
   */
  static Backup backup(Schedule schedule, String name, String optionsJson, Instant now) {
    if (!optionsJson.equals("{}")) {
      throw CliException.usage(
          "--from-schedule takes what to back up from the schedule's template: give no other"
              + " backup options");
    }
    String scheduleName = schedule.getMetadata().getName();
    BackupSpec template = schedule.getSpec() == null ? null : schedule.getSpec().template;
    Backup backup = new Backup();
    backup.setMetadata(
        new ObjectMetaBuilder()
            .withName(name != null ? name : scheduleName + "-" + STAMP.format(now))
            .withNamespace(schedule.getMetadata().getNamespace())
            .withLabels(Map.of(SteleApi.SCHEDULE_NAME_LABEL, scheduleName))
            .build());
    backup.setSpec(template == null ? new BackupSpec() : template);
    return backup;
  }
}
