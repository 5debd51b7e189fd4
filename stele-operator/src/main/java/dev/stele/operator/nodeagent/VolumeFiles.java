package dev.stele.operator.nodeagent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The files of a volume the agent adds and the ones it leaves out: a finished restore writes the
 * marker {@code <volume>/.stele/<restore uid>}, which the restored pod's {@code stele restore-wait}
 * init container waits for (Velero's {@code .velero/<uid>}); a backup leaves that directory out, so
 * a volume restored once and backed up again restores without old markers.
 */
public final class VolumeFiles {
  /** The directory, at a volume's root, holding restore markers. */
  public static final String MARKERS = ".stele";

  private VolumeFiles() {}

  /** The marker a restore with {@code restoreUid} writes into {@code volume} when it is done. */
  public static Path marker(Path volume, String restoreUid) {
    return volume.resolve(MARKERS).resolve(restoreUid);
  }

  /** Writes the marker, saying which snapshot was restored; returns its path. */
  static Path writeMarker(Path volume, String restoreUid, String snapshotId) throws IOException {
    Path marker = marker(volume, restoreUid);
    Files.createDirectories(marker.getParent());
    Files.write(marker, (snapshotId + "\n").getBytes(StandardCharsets.UTF_8));
    return marker;
  }

  /** The exclude glob (an absolute path) of the marker directory of {@code volume}. */
  static String markerGlob(Path volume) {
    String path = volume.resolve(MARKERS).toString();
    StringBuilder glob = new StringBuilder(path.length() + 8);
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if ("\\*?[]{},".indexOf(c) >= 0) {
        glob.append('\\');
      }
      glob.append(c);
    }
    return glob.toString();
  }

  /**
   * Bytes in the regular files under {@code volume}, markers left out; unreadable parts skipped.
   */
  static long size(Path volume) {
    AtomicLong total = new AtomicLong();
    Path markers = volume.resolve(MARKERS);
    try {
      Files.walkFileTree(
          volume,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              return dir.equals(markers) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile()) {
                total.addAndGet(attrs.size());
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // an estimate: what could be walked
    }
    return total.get();
  }
}
