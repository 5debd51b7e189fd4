package dev.stele.cli;

import dev.stele.maintenance.Maintenance;
import dev.stele.repo.Repository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stele maintenance …}: the only commands that delete. */
@Command(
    name = "maintenance",
    description = "Reclaim space from forgotten snapshots; extend retention.",
    subcommands = MaintenanceCommand.Run.class)
final class MaintenanceCommand extends GroupCommand {

  @Command(
      name = "run",
      description =
          "One maintenance pass: delete what an earlier pass marked (once the sweep window has"
              + " passed and retention allows), rewrite partly dead packs, compact the index,"
              + " mark what is now unreferenced, and extend retention where needed.")
  static final class Run extends SteleCommand {
    @Mixin RepositoryOptions repository;

    @Option(names = "--dry-run", description = "Decide, but write and delete nothing.")
    boolean dryRun;

    @Override
    public Integer call() throws Exception {
      try (Repository repo = repository.open(env())) {
        long t0 = System.nanoTime();
        Maintenance.Result r = new Maintenance(repo).run(dryRun);
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (dryRun) {
          out().println("dry run: the numbers say what a real run would do; nothing was written");
        }
        out().printf("packs marked:    %d%n", r.packsMarked());
        out().printf("packs rewritten: %d%n", r.packsRewritten());
        out()
            .printf("blobs deleted:   %d, freeing %s%n", r.deleted(), Format.bytes(r.bytesFreed()));
        out().printf("deferred:        %d (still retained, or refused by storage)%n", r.deferred());
        out().printf("extended:        %d (retention lengthened)%n", r.extended());
        for (String reason : r.heldBack()) {
          out().println("held back: " + reason);
        }
        out()
            .printf(
                "maintenance %s in %s%n",
                dryRun ? "dry run done" : "done", Format.seconds(seconds));
        return ExitCode.OK;
      }
    }
  }
}
