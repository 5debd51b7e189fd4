package dev.stele.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

/**
 * A temporary directory under the module's {@code target}, for tests that back up the same source
 * twice and expect nothing to change: the root tree records the metadata of the source's ancestors,
 * and {@code /tmp} is shared and busy, so its mtime moves between two backups.
 */
final class QuietTempDir implements TempDirFactory {
  @Override
  public Path createTempDirectory(
      AnnotatedElementContext elementContext, ExtensionContext extensionContext)
      throws IOException {
    return Files.createTempDirectory(Path.of("target").toAbsolutePath(), "quiet-");
  }
}
