package dev.stele.cli;

import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.snapshot.ForgetPolicy;
import dev.stele.snapshot.SnapshotCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele snapshot forget}: tombstone snapshots, named or chosen by a keep policy. Nothing is
 * deleted here; {@code stele maintenance run} later reclaims data nothing else uses.
 */
@Command(
    name = "forget",
    description =
        "Forget snapshots (named, or all not kept by --keep-* rules applied per host and paths)."
            + " Data is reclaimed later by 'stele maintenance run'.")
final class SnapshotForgetCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;

  @Parameters(paramLabel = "SNAPSHOT", arity = "0..*", description = "Snapshots to forget.")
  List<String> snapshots = List.of();

  @Option(names = "--keep-last", paramLabel = "N", description = "Keep the newest N.")
  int keepLast;

  @Option(names = "--keep-hourly", paramLabel = "N", description = "Keep the newest of N hours.")
  int keepHourly;

  @Option(names = "--keep-daily", paramLabel = "N", description = "Keep the newest of N days.")
  int keepDaily;

  @Option(names = "--keep-weekly", paramLabel = "N", description = "Keep the newest of N weeks.")
  int keepWeekly;

  @Option(names = "--keep-monthly", paramLabel = "N", description = "Keep the newest of N months.")
  int keepMonthly;

  @Option(names = "--keep-yearly", paramLabel = "N", description = "Keep the newest of N years.")
  int keepYearly;

  @Option(names = "--dry-run", description = "Only show what would be forgotten.")
  boolean dryRun;

  @Override
  public Integer call() throws Exception {
    ForgetPolicy policy =
        new ForgetPolicy(keepLast, keepHourly, keepDaily, keepWeekly, keepMonthly, keepYearly);
    if (keepLast < 0
        || keepHourly < 0
        || keepDaily < 0
        || keepWeekly < 0
        || keepMonthly < 0
        || keepYearly < 0) {
      throw CliException.usage("--keep-* counts cannot be negative");
    }
    if (snapshots.isEmpty() && policy.isEmpty()) {
      throw CliException.usage("name snapshots to forget, or give a --keep-* policy");
    }
    if (!snapshots.isEmpty() && !policy.isEmpty()) {
      throw CliException.usage("give either snapshots or a --keep-* policy, not both");
    }
    try (Repository repo = repository.open(env())) {
      SnapshotCatalog catalog = new SnapshotCatalog(repo);
      List<Forgotten> forget = new ArrayList<>();
      String reason;
      if (snapshots.isEmpty()) {
        policy.toForget(catalog.list()).forEach(e -> forget.add(Forgotten.of(e)));
        reason = "forget " + describe(policy);
      } else {
        // By id, without reading the manifest: a damaged one is forgotten like any other.
        SnapshotCatalog.Scan scan = catalog.scan();
        Map<Id, Forgotten> named = new LinkedHashMap<>();
        for (String s : snapshots) {
          Id id = catalog.resolveId(s, scan);
          named.put(id, Forgotten.of(id, scan));
        }
        forget.addAll(named.values());
        reason = "forget by name";
      }
      for (Forgotten f : forget) {
        if (!dryRun) {
          catalog.forget(f.id(), reason);
        }
        out()
            .printf("%s %s  %s%n", dryRun ? "would forget" : "forgot", f.id().shortHex(), f.what());
      }
      out()
          .printf(
              "%d snapshot%s %s%n",
              forget.size(),
              forget.size() == 1 ? "" : "s",
              dryRun ? "would be forgotten (dry run)" : "forgotten");
      return ExitCode.OK;
    }
  }

  /** A snapshot to forget, and how the output describes it. */
  private record Forgotten(Id id, String what) {
    static Forgotten of(SnapshotCatalog.Entry e) {
      return new Forgotten(
          e.id(),
          Format.time(e.manifest().time())
              + "  "
              + e.manifest().host()
              + "  "
              + String.join(" ", Format.paths(e.manifest().paths())));
    }

    static Forgotten of(Id id, SnapshotCatalog.Scan scan) {
      for (SnapshotCatalog.Entry e : scan.live()) {
        if (e.id().equals(id)) {
          return of(e);
        }
      }
      return new Forgotten(id, "(damaged manifest)");
    }
  }

  private static String describe(ForgetPolicy p) {
    StringBuilder s = new StringBuilder();
    append(s, "--keep-last", p.keepLast());
    append(s, "--keep-hourly", p.keepHourly());
    append(s, "--keep-daily", p.keepDaily());
    append(s, "--keep-weekly", p.keepWeekly());
    append(s, "--keep-monthly", p.keepMonthly());
    append(s, "--keep-yearly", p.keepYearly());
    return s.toString().trim();
  }

  private static void append(StringBuilder s, String option, int n) {
    if (n > 0) {
      s.append(' ').append(option).append(' ').append(n);
    }
  }
}
