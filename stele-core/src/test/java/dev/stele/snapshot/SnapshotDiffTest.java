package dev.stele.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SnapshotDiffTest {
  private final MemoryTrees trees = new MemoryTrees();

  @Test
  void changesCarryBothNodesAndUnchangedSubtreesAreNotRead() throws IOException {
    SnapshotCatalog.Entry a =
        trees.snapshot(
            Instant.parse("2026-01-01T00:00:00Z"),
            "h",
            Map.of("/same/deep/x", "x", "/f", "old", "/gone/g", "g"),
            1);
    SnapshotCatalog.Entry b =
        trees.snapshot(
            Instant.parse("2026-01-02T00:00:00Z"),
            "h",
            Map.of("/same/deep/x", "x", "/f", "newer", "/new", "n"),
            1);
    trees.treesRead.clear();

    List<SnapshotDiff.Change> changes =
        SnapshotDiff.diff(new SnapshotBrowser(trees), a.manifest(), b.manifest());

    assertThat(changes)
        .extracting(c -> c.kind() + " " + c.path())
        .containsExactly("M /f", "- /gone/", "- /gone/g", "+ /new");
    assertThat(changes.get(0).before().size()).isEqualTo(3);
    assertThat(changes.get(0).after().size()).isEqualTo(5);
    assertThat(changes.get(1).after()).isNull();
    assertThat(changes.get(3).before()).isNull();
    assertThat(trees.treesRead).hasSize(3); // two roots and /gone; /same is skipped unread
  }
}
