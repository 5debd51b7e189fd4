package dev.stele.cli;

import dev.stele.maintenance.RetentionAudit;
import dev.stele.maintenance.Verify;
import dev.stele.maintenance.VerifyListener;
import dev.stele.repo.Repository;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code stele verify}: check the repository; exit 5 if anything is damaged or missing. */
@Command(
    name = "verify",
    description =
        "Check every metadata blob, tree and index entry; with --read-data, every byte of every"
            + " pack. Exits 5 if anything is damaged or missing.")
final class VerifyCommand extends SteleCommand {
  @Mixin RepositoryOptions repository;
  @Mixin AsOfOption asOf;

  @Option(names = "--read-data", description = "Also read and authenticate all pack data.")
  boolean readData;

  @Option(
      names = "--retention",
      description =
          "Also audit retention: list every blob retained for less than the snapshots using it"
              + " need (exit 5 if any).")
  boolean retention;

  @Override
  public Integer call() throws Exception {
    CliEnvironment env = env();
    try (Repository repo = repository.open(env, asOf)) {
      long t0 = System.nanoTime();
      Verify.Result result;
      try (Progress progress = Progress.start("verify", env)) {
        VerifyListener listener =
            readData
                ? new VerifyListener() {
                  @Override
                  public void planned(long bytes) {
                    progress.totalBytes.set(bytes);
                  }

                  @Override
                  public void bytesRead(long n) {
                    progress.bytes.addAndGet(n);
                  }
                }
                : VerifyListener.NONE;
        result = new Verify(repo).run(readData, listener);
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      for (String problem : result.problems()) {
        err().println("problem: " + problem);
      }
      out()
          .printf(
              "checked %d snapshots, %d trees, %d packs, %d chunks%s in %s%n",
              result.snapshots(),
              result.trees(),
              result.packs(),
              result.chunks(),
              readData ? ", read " + Format.bytes(result.bytesRead()) : "",
              Format.seconds(seconds));
      int short_ = retention ? auditRetention(repo) : 0;
      if (result.ok() && short_ == 0) {
        out().println("no problems found");
        return ExitCode.OK;
      }
      if (result.ok()) {
        err()
            .println(
                "stele: "
                    + short_
                    + (short_ == 1 ? " blob is" : " blobs are")
                    + " retained for less than they need (maintenance run extends them)");
        return ExitCode.DAMAGED;
      }
      err()
          .println(
              "stele: verify found "
                  + result.problems().size()
                  + (result.problems().size() == 1 ? " problem" : " problems"));
      return ExitCode.DAMAGED;
    }
  }

  /** Prints each blob retained for less than it needs; returns how many. */
  private int auditRetention(Repository repo) throws java.io.IOException {
    RetentionAudit.Result audit = new RetentionAudit(repo).run();
    if (!audit.lockMode()) {
      out().println("retention: the repository has no lock mode; nothing needs retention");
      return 0;
    }
    for (String problem : audit.problems()) {
      err().println("problem: " + problem);
    }
    for (RetentionAudit.Shortfall s : audit.shortfalls()) {
      err().println("retention: " + s);
    }
    out()
        .printf(
            "retention: checked %d blobs, %d short%n", audit.checked(), audit.shortfalls().size());
    return audit.shortfalls().size() + audit.problems().size();
  }
}
