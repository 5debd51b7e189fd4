package dev.stele.snapshot;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Run by {@link LibcTest} in a JVM of its own: makes the FIFO {@code args[0]} through Libc. */
final class LibcProbe {
  private LibcProbe() {}

  public static void main(String[] args) {
    try {
      Libc.require();
      byte[] path = Libc.cString(args[0].getBytes(StandardCharsets.UTF_8));
      Libc.mknod(Libc.AT_FDCWD, path, Libc.S_IFIFO | 0600, 0, args[0]);
    } catch (IOException e) {
      System.out.println(e.getMessage());
      System.exit(1);
    }
  }
}
