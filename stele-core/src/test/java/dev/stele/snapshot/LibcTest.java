package dev.stele.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.jna.Native;
import com.sun.jna.Platform;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * FileRestore's native calls work where nothing can be unpacked: the distribution ships JNA's
 * library in {@code native/<platform>/} beside {@code lib/}, and Libc finds it there.
 */
class LibcTest {
  @TempDir Path tmp;

  @Test
  void loadsTheShippedNativeLibraryWhenNoTemporaryDirectoryIsWritable() throws Exception {
    Path lib = tmp.resolve("stele/lib");
    copyTree(codeSource(Libc.class), lib.resolve("classes"));
    Path nativeDir = tmp.resolve("stele/native").resolve(Platform.RESOURCE_PREFIX);
    Files.createDirectories(nativeDir);
    String resource = "/com/sun/jna/" + Platform.RESOURCE_PREFIX + "/libjnidispatch.so";
    try (InputStream in = Native.class.getResourceAsStream(resource)) {
      Files.copy(in, nativeDir.resolve("libjnidispatch.so"));
    }
    // Below a regular file, not even root can make a directory.
    Path unwritable = Files.writeString(tmp.resolve("a-file"), "").resolve("tmp");
    String classPath =
        String.join(
            File.pathSeparator,
            lib.resolve("classes").toString(),
            codeSource(LibcProbe.class).toString(),
            codeSource(Native.class).toString());
    Path fifo = tmp.resolve("fifo");

    Probe shipped = probe(classPath, unwritable, fifo);

    assertThat(shipped.exitCode()).as(shipped.output()).isZero();
    assertThat(Files.getAttribute(fifo, "unix:mode", LinkOption.NOFOLLOW_LINKS))
        .isEqualTo(Libc.S_IFIFO | 0600);

    // Without it, JNA must unpack its library, which the unwritable directory refuses.
    Files.delete(nativeDir.resolve("libjnidispatch.so"));
    Probe unpacked = probe(classPath, unwritable, tmp.resolve("fifo2"));

    assertThat(unpacked.exitCode()).isEqualTo(1);
    assertThat(unpacked.output()).contains("cannot load JNA's native library");
    assertThat(tmp.resolve("fifo2")).doesNotExist();
  }

  private record Probe(int exitCode, String output) {}

  private static Probe probe(String classPath, Path tmpdir, Path fifo)
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p =
        new ProcessBuilder(
                List.of(
                    java,
                    "-Djava.io.tmpdir=" + tmpdir,
                    // JNA unpacks into ~/.cache/JNA unless told otherwise: not writable either.
                    "-Djna.tmpdir=" + tmpdir,
                    "-Djna.nosys=true",
                    "-cp",
                    classPath,
                    LibcProbe.class.getName(),
                    fifo.toString()))
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Probe(p.waitFor(), output);
  }

  private static Path codeSource(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : s.toList()) {
        Path dest = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(dest);
        } else {
          Files.copy(p, dest);
        }
      }
    }
  }
}
