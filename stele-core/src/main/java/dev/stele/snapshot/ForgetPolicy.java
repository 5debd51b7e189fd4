package dev.stele.snapshot;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.IsoFields;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Which snapshots to keep, in the manner of restic's {@code forget --keep-*}: the newest {@code
 * keepLast}, plus the newest snapshot of each of the last {@code keepDaily} days that have one, and
 * so on for hours, weeks, months and years (UTC). A snapshot kept by any rule is kept. Policies
 * apply per host and path set, so one machine's snapshots never push out another's.
 */
public record ForgetPolicy(
    int keepLast, int keepHourly, int keepDaily, int keepWeekly, int keepMonthly, int keepYearly) {

  public boolean isEmpty() {
    return keepLast + keepHourly + keepDaily + keepWeekly + keepMonthly + keepYearly == 0;
  }

  /** The snapshots of {@code all} this policy does not keep. */
  public List<SnapshotCatalog.Entry> toForget(List<SnapshotCatalog.Entry> all) {
    if (isEmpty()) {
      return List.of();
    }
    List<SnapshotCatalog.Entry> forget = new ArrayList<>();
    var groups =
        all.stream()
            .collect(
                java.util.stream.Collectors.groupingBy(
                    e -> e.manifest().host() + "\0" + String.join("\0", e.manifest().paths())));
    for (List<SnapshotCatalog.Entry> group : groups.values()) {
      List<SnapshotCatalog.Entry> newestFirst = new ArrayList<>(group);
      newestFirst.sort(
          Comparator.comparing((SnapshotCatalog.Entry e) -> e.manifest().time()).reversed());
      Set<SnapshotCatalog.Entry> keep = new HashSet<>();
      for (int i = 0; i < Math.min(keepLast, newestFirst.size()); i++) {
        keep.add(newestFirst.get(i));
      }
      keepBuckets(
          newestFirst, keepHourly, t -> t.format(DateTimeFormatter.ofPattern("yyyyMMddHH")), keep);
      keepBuckets(newestFirst, keepDaily, t -> t.toLocalDate().toString(), keep);
      keepBuckets(
          newestFirst,
          keepWeekly,
          t -> t.get(IsoFields.WEEK_BASED_YEAR) + "-" + t.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR),
          keep);
      keepBuckets(newestFirst, keepMonthly, t -> t.getYear() + "-" + t.getMonthValue(), keep);
      keepBuckets(newestFirst, keepYearly, t -> Integer.toString(t.getYear()), keep);
      for (SnapshotCatalog.Entry e : newestFirst) {
        if (!keep.contains(e)) {
          forget.add(e);
        }
      }
    }
    forget.sort(Comparator.comparing((SnapshotCatalog.Entry e) -> e.manifest().time()));
    return forget;
  }

  private static void keepBuckets(
      List<SnapshotCatalog.Entry> newestFirst,
      int count,
      Function<ZonedDateTime, String> bucket,
      Set<SnapshotCatalog.Entry> keep) {
    Set<String> seen = new HashSet<>();
    for (SnapshotCatalog.Entry e : newestFirst) {
      if (seen.size() >= count) {
        return;
      }
      if (seen.add(bucket.apply(e.manifest().time().atZone(ZoneOffset.UTC)))) {
        keep.add(e);
      }
    }
  }
}
