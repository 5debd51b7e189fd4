package dev.stele.cli.cluster;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The text of a {@code describe} command, as Velero's looks: blocks separated by blank lines; a
 * block holds {@code Label: value} lines whose values line up, under an optional heading that
 * indents them. Call {@link #end()} to close a block and once more when done.
 */
final class Details {
  private final PrintWriter out;
  private final List<String[]> fields = new ArrayList<>();
  private String indent = "";
  private boolean printed;
  private boolean inBlock;

  Details(PrintWriter out) {
    this.out = out;
  }

  /** A field of the current block; a null value shows as {@code <none>}. */
  Details field(String label, Object value) {
    fields.add(new String[] {label, value == null ? "<none>" : value.toString()});
    return this;
  }

  /** Closes the current block, printing its fields. */
  Details end() {
    flush();
    inBlock = false;
    indent = "";
    return this;
  }

  /** Starts a block with a heading; its fields and lines are indented under it. */
  Details heading(String title) {
    end();
    startLine();
    out.println(title + ":");
    indent = "  ";
    return this;
  }

  /** A line as it is, in the current block. */
  Details line(String text) {
    flush();
    startLine();
    out.println(indent + text);
    return this;
  }

  private void startLine() {
    if (!inBlock) {
      if (printed) {
        out.println();
      }
      inBlock = true;
      printed = true;
    }
  }

  private void flush() {
    if (fields.isEmpty()) {
      return;
    }
    startLine();
    int width = 0;
    for (String[] f : fields) {
      width = Math.max(width, f[0].length());
    }
    for (String[] f : fields) {
      out.println(indent + f[0] + ":" + " ".repeat(width - f[0].length() + 2) + f[1]);
    }
    fields.clear();
  }
}
