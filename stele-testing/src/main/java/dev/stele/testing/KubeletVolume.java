package dev.stele.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A Secret or ConfigMap volume laid out as the kubelet's atomic writer makes it: the files in a
 * timestamped directory {@code ..<time>}, a symbolic link {@code ..data} to it, and each key a link
 * {@code <key> -> ..data/<key>}. An update writes a new directory, points a new link at it and
 * renames that over {@code ..data} (one atomic step for every key at once), then drops the links of
 * keys that went and the old directory.
 */
public final class KubeletVolume {
  private final Path dir;
  private int version;
  private Set<String> keys = new TreeSet<>();

  /** An empty volume at {@code dir}, made if missing. */
  public KubeletVolume(Path dir) throws IOException {
    this.dir = Files.createDirectories(dir);
  }

  /** The mount's directory. */
  public Path dir() {
    return dir;
  }

  /** The link through which a key is read. */
  public Path file(String key) {
    return dir.resolve(key);
  }

  /** Makes the volume hold exactly {@code data}, as the kubelet does when the Secret changes. */
  public void write(Map<String, String> data) throws IOException {
    Path old =
        Files.isSymbolicLink(dir.resolve("..data"))
            ? dir.resolve(Files.readSymbolicLink(dir.resolve("..data")))
            : null;
    version++;
    String name = "..2026_12_01_20_00_00." + version;
    Path next = Files.createDirectory(dir.resolve(name));
    for (var e : data.entrySet()) {
      Files.writeString(next.resolve(e.getKey()), e.getValue());
    }
    Path link = dir.resolve("..data_tmp");
    Files.createSymbolicLink(link, Path.of(name));
    Files.move(link, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
    for (String key : data.keySet()) {
      if (!Files.isSymbolicLink(dir.resolve(key))) {
        Files.createSymbolicLink(dir.resolve(key), Path.of("..data", key));
      }
    }
    for (String gone : keys) {
      if (!data.containsKey(gone)) {
        Files.delete(dir.resolve(gone));
      }
    }
    keys = new TreeSet<>(data.keySet());
    if (old != null) {
      try (var files = Files.list(old)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.delete(f);
        }
      }
      Files.delete(old);
    }
  }
}
