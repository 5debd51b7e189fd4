package dev.stele.jna;

import com.sun.jna.Platform;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * JNA loads its own native library ({@code libjnidispatch.so}). The distribution ships it unpacked
 * in {@code native/<platform>/} beside {@code lib/}; {@link #prepare} points JNA there, so nothing
 * is unpacked into a temporary directory that a read-only root file system lacks. Elsewhere (tests,
 * a plain class path) JNA unpacks it as usual.
 *
 * <p>{@link #prepare} also gives JNA the system's library directories, so that JNA does not learn
 * them by running {@code ldconfig -p}: a child process and its output to parse, some 15 ms of every
 * command that opens a repository. The libraries Stele binds are named with their soname ({@code
 * libcrypto.so.3}), which the dynamic loader finds through its own cache wherever they are.
 */
public final class ShippedJna {
  private ShippedJna() {}

  /**
   * Points JNA at {@code native/<platform>/} beside the directory holding this class's jar, unless
   * {@code jna.boot.library.path} is set already. Call before JNA's first use.
   */
  public static void prepare() {
    if (System.getProperty("jna.platform.library.path") == null) {
      System.setProperty("jna.platform.library.path", systemDirectories());
    }
    if (System.getProperty("jna.boot.library.path") != null) {
      return;
    }
    try {
      Path code =
          Path.of(ShippedJna.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path lib = code.getParent();
      if (lib == null) {
        return;
      }
      Path dir = lib.resolveSibling("native").resolve(Platform.RESOURCE_PREFIX);
      if (Files.isRegularFile(dir.resolve(System.mapLibraryName("jnidispatch")))) {
        System.setProperty("jna.boot.library.path", dir.toString());
      }
    } catch (Exception e) {
      // No usable code source: JNA unpacks its library as usual.
    }
  }

  /** The directories JNA would list itself, less the ones only {@code ldconfig -p} names. */
  private static String systemDirectories() {
    String arch = System.getProperty("os.arch", "");
    String triplet = (arch.equals("amd64") ? "x86_64" : arch) + "-linux-gnu";
    return String.join(
        ":", "/usr/lib/" + triplet, "/lib/" + triplet, "/usr/lib64", "/lib64", "/usr/lib", "/lib");
  }
}
