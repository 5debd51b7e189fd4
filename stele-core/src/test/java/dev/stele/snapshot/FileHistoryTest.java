package dev.stele.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FileHistoryTest {
  private final MemoryTrees trees = new MemoryTrees();

  private SnapshotCatalog.Entry at(int day, String report, long mtime) {
    return trees.snapshot(
        Instant.parse("2026-01-0" + day + "T00:00:00Z"),
        "web",
        Map.of("/data/report.txt", report, "/data/other/x", "x", "/big/y", "y"),
        mtime);
  }

  @Test
  void oneVersionPerDistinctContentNewestFirstWithTheSnapshotsHoldingIt() throws IOException {
    SnapshotCatalog.Entry d1 = at(1, "one", 1);
    SnapshotCatalog.Entry d2 = at(2, "one", 2); // touched, same content
    SnapshotCatalog.Entry d3 = at(3, "two!", 3);
    SnapshotCatalog.Entry d4 =
        trees.snapshot(Instant.parse("2026-01-04T00:00:00Z"), "web", Map.of("/data/", ""), 4);

    List<FileHistory.Version> history =
        FileHistory.of(new SnapshotBrowser(trees), List.of(d1, d3, d2, d4), "/data/report.txt");

    assertThat(history).hasSize(2);
    assertThat(history.get(0).snapshots()).containsExactly(d3);
    assertThat(history.get(0).node().size()).isEqualTo(4);
    assertThat(history.get(1).snapshots()).containsExactly(d2, d1);
    assertThat(history.get(1).node().mtimeNanos()).isEqualTo(2_000_000_000L);
  }

  @Test
  void aDirectoryWithTheSameTreeIdIsNotReadAgain() throws IOException {
    SnapshotCatalog.Entry d1 = at(1, "one", 1);
    SnapshotCatalog.Entry d2 = at(2, "one", 1); // the very same tree
    SnapshotCatalog.Entry d3 = at(3, "two", 1);

    List<FileHistory.Version> history =
        FileHistory.of(new SnapshotBrowser(trees), List.of(d1, d2, d3), "/data/report.txt");

    assertThat(history).extracting(v -> v.snapshots().size()).containsExactly(1, 2);
    assertThat(trees.treesRead).doesNotHaveDuplicates().hasSize(4); // two roots, two /data
  }
}
