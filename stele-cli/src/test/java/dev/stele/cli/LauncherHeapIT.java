package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap settings the {@code stele} launcher gives a command's JVM: {@code verify} keeps its old
 * generation's free space small (it holds what it walked for the whole run), every other command
 * has the JVM's default. Read back from the JVM itself ({@code -XX:+PrintFlagsFinal}), so a
 * launcher that drops or misplaces the options fails here.
 */
class LauncherHeapIT {
  // failsafe runs in the module's directory, stele-cli
  private static final Path CHECKOUT = Path.of("").toAbsolutePath().getParent();

  @TempDir Path tmp;

  @Test
  void verifyRunsWithLittleFreeOldGenerationAndOtherCommandsWithTheDefault() throws Exception {
    assertThat(heapFreeRatios("verify", "--read-data")).containsExactly("10", "30");
    assertThat(heapFreeRatios("verify")).containsExactly("10", "30");
    assertThat(heapFreeRatios("snapshot", "list")).containsExactly("40", "70");
    assertThat(heapFreeRatios("snapshot", "create", tmp.toString())).containsExactly("40", "70");
    assertThat(heapFreeRatios("restore", "latest", "--target", tmp.toString()))
        .containsExactly("40", "70");
  }

  /** MinHeapFreeRatio and MaxHeapFreeRatio of the JVM that runs {@code stele ARGS}. */
  private List<String> heapFreeRatios(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(CHECKOUT.resolve("stele").toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(tmp.toFile());
    // No repository there: the command fails after the JVM has listed its flags, which is enough.
    pb.environment().put("STELE_REPO", tmp.resolve("none").toString());
    pb.environment().put("STELE_PASSWORD", "unused");
    pb.environment().put("STELE_JAVA_OPTS", "-XX:+PrintFlagsFinal");
    pb.environment().remove("STELE_DIST");
    Process p = pb.redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(1, TimeUnit.MINUTES)).as("stele %s ended", List.of(args)).isTrue();
    return List.of(flag(out, "MinHeapFreeRatio"), flag(out, "MaxHeapFreeRatio"));
  }

  private static String flag(String flags, String name) {
    Matcher m = Pattern.compile("\\b" + name + "\\s+= (\\S+)").matcher(flags);
    assertThat(m.find()).as("the JVM listed %s", name).isTrue();
    return m.group(1);
  }
}
