package dev.stele.cli.cluster;

import dev.stele.cli.ExitCode;
import dev.stele.cli.SteleCommand;
import dev.stele.operator.NodeAgent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code stele restore-wait}: the init container of a restored pod. Waits until the node agent has
 * restored each of the pod's volumes, which it says by writing {@code DIR/.stele/UID} last, so the
 * pod's containers start on complete data.
 */
@Command(
    name = "restore-wait",
    description =
        "Wait until every DIR has been restored by the node agent (DIR/.stele/UID exists),"
            + " looking every second; print one line per volume as it is done. The init container"
            + " of a restored pod.")
public final class RestoreWaitCommand extends SteleCommand {
  @Option(
      names = "--restore-uid",
      required = true,
      paramLabel = "UID",
      description = "The uid of the Restore whose markers to wait for.")
  String restoreUid;

  @Parameters(arity = "1..*", paramLabel = "DIR", description = "The volumes' mount paths.")
  List<Path> dirs;

  @Override
  public Integer call() throws InterruptedException {
    Set<Path> pending = new LinkedHashSet<>(dirs);
    while (true) {
      for (Path dir : new ArrayList<>(pending)) {
        Path marker = NodeAgent.restoredMarker(dir, restoreUid);
        if (Files.exists(marker)) {
          out().println(dir + ": restored" + from(marker));
          out().flush();
          pending.remove(dir);
        }
      }
      if (pending.isEmpty()) {
        return ExitCode.OK;
      }
      Thread.sleep(1000);
    }
  }

  /** " from snapshot <id>", as the agent wrote it into the marker, or nothing. */
  private static String from(Path marker) {
    try {
      String id = Files.readString(marker, StandardCharsets.UTF_8).strip();
      return id.isEmpty() ? "" : " from snapshot " + id.substring(0, Math.min(8, id.length()));
    } catch (IOException e) {
      return "";
    }
  }
}
