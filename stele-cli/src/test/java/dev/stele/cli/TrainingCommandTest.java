package dev.stele.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The S3 archive is trained on the S3 commands run against {@link LockBucketImitation}, the cluster
 * archive on {@code backup get} against an imitation of an API server: if a client asks something
 * an imitation cannot answer, a command fails here, instead of the build quietly recording fewer
 * classes and every such command starting slower.
 */
class TrainingCommandTest {
  @TempDir Path tmp;
  final ByteArrayOutputStream out = new ByteArrayOutputStream();
  final ByteArrayOutputStream err = new ByteArrayOutputStream();
  final CliEnvironment env = new CliEnvironment(name -> null, out, err, null, Clock.systemUTC());

  @Test
  void everyS3CommandTrainedOnSucceedsAgainstTheImitation() throws Exception {
    int code = TrainingCommand.s3Commands(env, tmp);

    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("object lock on")
        .contains("2 snapshots")
        .contains("restored 278 files")
        .contains("no problems found");
  }

  @Test
  void backupGetTrainedOnListsTheImitationsBackup() throws Exception {
    int code = TrainingCommand.clusterCommands(env, tmp);

    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).containsPattern("training +Completed");
  }
}
