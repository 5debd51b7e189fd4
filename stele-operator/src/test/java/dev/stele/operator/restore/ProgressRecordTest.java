package dev.stele.operator.restore;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.k8s.api.Restore;
import dev.stele.k8s.api.RestoreSpec;
import dev.stele.k8s.api.RestoreStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The record a Restore's status keeps while it waits for volumes, and its size limit. */
class ProgressRecordTest {
  final Clock clock = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);

  Outcome outcome(int objects) {
    Outcome o =
        new Outcome(
            "nightly",
            "ab".repeat(32),
            "default",
            Instant.parse("2026-12-31T00:00:00Z"),
            "2026-12-01T11:59:00Z",
            clock);
    o.warn("volume logs of pod app/db was not backed up");
    o.error("configmaps app/broken: refused");
    for (int i = 0; i < objects; i++) {
      o.objects.add(
          new RestoreDocument.Item(
              "configmaps", "app", "cm-" + i, "app/cm-" + i, RestoreDocument.RESTORED, null));
      o.log("restored configmaps app/cm-" + i);
    }
    o.restored = objects;
    o.volumes.add(new Outcome.Requested("app", "db", "data", "cd".repeat(32), "r-db-data"));
    return o;
  }

  Restore restoreWith(Outcome o) {
    Restore r = new Restore();
    r.setSpec(new RestoreSpec());
    r.getSpec().backupName = "nightly";
    r.setStatus(new RestoreStatus());
    r.getStatus().startTimestamp = o.started;
    r.getStatus().itemsRestored = o.restored;
    r.getStatus().itemsSkipped = o.skipped;
    r.getStatus().progress = ProgressRecord.of(o);
    return r;
  }

  @Test
  void anOutcomeResumedFromTheStatusIsTheOneKept() {
    Outcome o = outcome(3);
    Outcome back = ProgressRecord.resume(restoreWith(o), clock);
    assertThat(back.backupName).isEqualTo(o.backupName);
    assertThat(back.backupSnapshot).isEqualTo(o.backupSnapshot);
    assertThat(back.repository).isEqualTo(o.repository);
    assertThat(back.expires).isEqualTo(o.expires);
    assertThat(back.started).isEqualTo(o.started);
    assertThat(back.objects).isEqualTo(o.objects);
    assertThat(back.warnings).isEqualTo(o.warnings);
    assertThat(back.errors).isEqualTo(o.errors);
    assertThat(back.log).isEqualTo(o.log);
    assertThat(back.volumes).isEqualTo(o.volumes);
    assertThat(back.restored).isEqualTo(3);
    assertThat(back.note).isNull();
  }

  @Test
  void aRecordTooLargeForTheStatusKeepsWhatFitsAndSaysWhatIsLeftOut() throws Exception {
    Outcome o = outcome(8_000);
    var kept = ProgressRecord.of(o);
    // What the API server stores: the record's JSON.
    assertThat(new ObjectMapper().writeValueAsString(kept).length())
        .isLessThanOrEqualTo(ProgressRecord.BUDGET + 1024);
    assertThat(kept.warnings).isEqualTo(o.warnings);
    assertThat(kept.errors).isEqualTo(o.errors);
    assertThat(kept.objects).isNotEmpty().hasSizeLessThan(8_000);
    assertThat(kept.volumeRequests).hasSize(1);
    assertThat(kept.note).contains("limited to 512 KiB").contains("the counts are exact");
    Outcome back = ProgressRecord.resume(restoreWith(o), clock);
    assertThat(back.restored).isEqualTo(8_000);
    assertThat(back.objects).isEqualTo(o.objects.subList(0, kept.objects.size()));
    assertThat(back.note).isEqualTo(kept.note);
  }
}
