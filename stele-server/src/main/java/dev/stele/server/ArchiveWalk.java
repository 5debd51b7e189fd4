package dev.stele.server;

import dev.stele.snapshot.FileName;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import java.io.IOException;

/**
 * The walk every directory archive (zip, tar) is written by, in one place: depth first in name
 * order, directories and regular files, each named relative to the archived directory as {@link
 * FileName#display} shows it. Symbolic links, devices, FIFOs and sockets are left out: a zip has no
 * portable place for them, and a link in a tar could point its unpacking outside its directory. A
 * name that could climb out of the directory or be read as absolute when unpacked (empty, {@code
 * .}, {@code ..}, holding a {@code /} or a NUL) is left out too; a tree made by a backup never has
 * one, but a tree is data and is not trusted to be well made.
 */
final class ArchiveWalk {
  private ArchiveWalk() {}

  /** Where the walk's entries go, in order. */
  interface Sink {
    /** A directory's entry, before its content; {@code name} ends with {@code /}. */
    void directory(String name, Node dir) throws IOException;

    /** A regular file's entry with its content; gives the bytes of content written. */
    long file(String name, Node file) throws IOException;
  }

  /** Walks {@code dir}'s content into {@code sink}; gives the bytes of file content written. */
  static long walk(SnapshotBrowser browser, Node dir, Sink sink) throws IOException {
    return walk(browser, dir, "", sink);
  }

  private static long walk(SnapshotBrowser browser, Node dir, String prefix, Sink sink)
      throws IOException {
    long bytes = 0;
    for (Node n : browser.tree(dir).nodes()) {
      if (!safe(n.name())) {
        continue;
      }
      String name = prefix + FileName.display(n.name());
      if (n.isDirectory()) {
        sink.directory(name + "/", n);
        bytes += walk(browser, n, name + "/", sink);
      } else if (n.isFile()) {
        bytes += sink.file(name, n);
      }
    }
    return bytes;
  }

  static boolean safe(String name) {
    return !name.isEmpty()
        && !name.equals(".")
        && !name.equals("..")
        && name.indexOf('/') < 0
        && name.indexOf('\0') < 0;
  }
}
