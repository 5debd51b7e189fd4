package dev.stele.cli;

import dev.stele.maintenance.Repair;
import dev.stele.maintenance.SnapshotDamage;
import dev.stele.repo.Repository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code stele repair}: mend damaged packs and lost index entries by writing new blobs only; exit 5
 * while a snapshot remains incomplete, as {@code verify} does for damage.
 */
@Command(
    name = "repair",
    description =
        "Read every pack; copy what can be read of damaged packs into new ones, take packs no index"
            + " names back from their footers, write one new index without the damaged packs and"
            + " mark them for maintenance. Never deletes or rewrites anything. Then report every"
            + " snapshot as complete, or incomplete with the files and directories it lacks."
            + " Exits 5 while a snapshot is incomplete.")
final class RepairCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;

  @Override
  public Integer call() throws Exception {
    try (Repository repo = repository.open(env())) {
      long t0 = System.nanoTime();
      Repair.Result result = new Repair(repo).run();
      double seconds = (System.nanoTime() - t0) / 1e9;
      for (Repair.DamagedPack d : result.damaged()) {
        out()
            .printf(
                "damaged: %s (%s): %d chunks copied to new packs, %d lost%n",
                d.name(), d.problem(), d.salvaged(), d.lost());
      }
      for (String pack : result.footerIndexed()) {
        out().printf("indexed from its footer: %s%n", pack);
      }
      if (result.wroteNothing()) {
        out().println("nothing to repair: wrote nothing");
      } else {
        out()
            .printf(
                "wrote %d new packs, %s, %s (marks the damaged packs for maintenance)%n",
                result.newPacks().size(), result.index(), result.record());
      }
      for (SnapshotDamage.State s : result.snapshots()) {
        printState(s);
      }
      for (String problem : result.problems()) {
        err().println("problem: " + problem);
      }
      out().printf("repair done in %s%n", Format.seconds(seconds));
      int incomplete = result.incomplete().size();
      if (incomplete > 0) {
        err()
            .println(
                "stele: "
                    + incomplete
                    + (incomplete == 1 ? " snapshot is" : " snapshots are")
                    + " incomplete: back up the same data again to heal, then run repair again to"
                    + " check");
        return ExitCode.DAMAGED;
      }
      if (!result.problems().isEmpty()) {
        err().println("stele: repair found problems it cannot mend (see verify)");
        return ExitCode.DAMAGED;
      }
      return ExitCode.OK;
    }
  }

  private void printState(SnapshotDamage.State s) {
    String what =
        s.complete()
            ? "complete"
            : "incomplete: "
                + s.missingFiles().size()
                + " files and "
                + s.missingTrees().size()
                + " directories lost";
    out()
        .printf(
            "snapshot %s %s %s: %s%n",
            s.snapshot().id().shortHex(),
            Format.time(s.snapshot().manifest().time()),
            String.join(",", s.snapshot().manifest().paths()),
            what);
    s.missingFiles().forEach(f -> out().println("  lost file: " + f));
    s.missingTrees().forEach(t -> out().println("  lost directory: " + t + " (and all below)"));
  }
}
