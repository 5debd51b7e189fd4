package dev.stele.cli.cluster;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Columns aligned with spaces, kubectl's and Velero's way: a header row, then one row each. The
 * columns past {@link #narrow}'s count are printed only for {@code -o wide}.
 */
final class Table {
  private final List<String[]> rows = new ArrayList<>();
  private int shown;

  Table(String... header) {
    rows.add(header);
    shown = header.length;
  }

  /** Prints only the first {@code columns} columns unless {@code wide}. */
  Table narrow(int columns, boolean wide) {
    shown = wide ? rows.get(0).length : columns;
    return this;
  }

  Table row(Object... cells) {
    String[] row = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      row[i] = cells[i] == null ? "<none>" : cells[i].toString();
    }
    rows.add(row);
    return this;
  }

  void print(PrintWriter out) {
    lines().forEach(out::println);
  }

  List<String> lines() {
    List<String> lines = new ArrayList<>();
    int columns = shown;
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < columns; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(row[i]);
        if (i < columns - 1) {
          line.append(" ".repeat(width[i] - row[i].length() + 3));
        }
      }
      lines.add(line.toString().stripTrailing());
    }
    return lines;
  }
}
