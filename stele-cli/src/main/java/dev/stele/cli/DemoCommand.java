package dev.stele.cli;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code stele demo}: the whole round trip on the embedded default, a repository in a local
 * directory. Generates a sample tree, then runs the real commands — {@code repo init}, {@code
 * snapshot create}, {@code snapshot list}, {@code restore} — and checks the restore is identical to
 * the source. Exits 0 only if it is.
 */
@Command(
    name = "demo",
    description =
        "Back up a generated sample tree into a new repository in a temporary directory,"
            + " restore it, and check the restore is identical.")
final class DemoCommand extends SteleCommand {
  static final String PASSWORD = "stele-demo";

  @Option(names = "--keep", description = "Keep the temporary directories afterwards.")
  boolean keep;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Work in DIR instead of a new temporary directory.")
  Path dir;

  @Option(names = "--quick", hidden = true, description = "Small data and a cheap KDF (tests).")
  boolean quick;

  private long demoStarted;

  @Override
  public Integer call() throws Exception {
    demoStarted = System.nanoTime();
    Path base =
        dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("stele-demo-");
    Path source = base.resolve("source");
    Path repository = base.resolve("repository");
    Path restored = base.resolve("restored");
    out().println("stele demo in " + base);
    out()
        .println("password: \"" + PASSWORD + "\" (fixed for the demo; never use it for real data)");
    CliEnvironment demo =
        env()
            .withVariables(
                Map.of(
                    Passwords.PASSWORD, PASSWORD, RepositoryOptions.REPO, repository.toString()));
    int code = ExitCode.OK;
    try {
      step("generate sample data");
      out().println(SampleTree.generate(source, quick ? 1 << 20 : 20 << 20));
      done();
      List<String> init = new ArrayList<>(List.of("repo", "init"));
      if (quick) {
        init.addAll(List.of("--kdf-memory", "64", "--kdf-iterations", "1"));
      }
      code = run(demo, "repository init", init.toArray(String[]::new));
      if (code == ExitCode.OK) {
        code =
            run(demo, "snapshot create", "snapshot", "create", source.toString(), "--tag", "demo");
      }
      if (code == ExitCode.OK) {
        code = run(demo, "snapshot list", "snapshot", "list");
      }
      if (code == ExitCode.OK) {
        code = run(demo, "restore", "restore", "latest:" + source, "--target", restored.toString());
      }
      if (code == ExitCode.OK) {
        step("compare restore with source");
        List<String> differences = TreeComparison.compare(source, restored);
        if (differences.isEmpty()) {
          out().println("identical: contents, sizes, modes, times, symbolic and hard links");
          done();
        } else {
          differences.stream().limit(20).forEach(d -> err().println("differs: " + d));
          err().println("stele: demo FAILED: " + differences.size() + " differences");
          code = ExitCode.DAMAGED;
        }
      }
    } finally {
      if (keep || dir != null) {
        out().println("kept " + base);
      } else {
        deleteTree(base);
      }
    }
    if (code == ExitCode.OK) {
      out().printf("%ndemo passed in %s%n", Format.seconds(elapsed(demoStarted)));
    }
    return code;
  }

  private long stepStarted;

  private void step(String title) {
    out().println();
    out().println("==> " + title);
    stepStarted = System.nanoTime();
  }

  private void done() {
    out().printf("    (%s)%n", Format.seconds(elapsed(stepStarted)));
  }

  private int run(CliEnvironment demo, String title, String... args) {
    step(title + ": stele " + String.join(" ", args));
    int code = Main.run(demo, args);
    if (code != ExitCode.OK) {
      err().println("stele: demo FAILED at '" + title + "' (exit code " + code + ")");
      return code;
    }
    done();
    return code;
  }

  private static double elapsed(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  static void deleteTree(Path root) throws IOException {
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            d.toFile().setWritable(true);
            Files.delete(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }
}
