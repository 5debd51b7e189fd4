package dev.stele.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SnapshotFindTest {
  private final MemoryTrees trees = new MemoryTrees();
  private final SnapshotCatalog.Entry first =
      trees.snapshot(
          Instant.parse("2026-01-01T00:00:00Z"),
          "web",
          Map.of(
              "/etc/app.conf", "a=1",
              "/etc/nginx/site.conf", "server",
              "/var/log/app.log", "start",
              "/var/log/old/App.LOG", "older",
              "/home/x/readme.txt", "hi"),
          10);
  private final SnapshotCatalog.Entry second =
      trees.snapshot(
          Instant.parse("2026-01-02T00:00:00Z"),
          "db",
          Map.of(
              "/etc/app.conf", "a=2",
              "/etc/nginx/site.conf", "server",
              "/var/log/app.log", "start",
              "/var/log/old/App.LOG", "older",
              "/home/x/readme.txt", "hi"),
          10);

  private List<String> find(List<String> patterns, boolean ignoreCase, SnapshotCatalog.Entry s)
      throws IOException {
    return new SnapshotFind(new SnapshotBrowser(trees), patterns, ignoreCase)
        .in(s.manifest()).stream().map(SnapshotBrowser.Entry::path).toList();
  }

  @Test
  void aPatternWithoutSlashMatchesNamesAtAnyDepth() throws IOException {
    assertThat(find(List.of("*.log"), false, first)).containsExactly("/var/log/app.log");
    assertThat(find(List.of("*.log"), true, first))
        .containsExactly("/var/log/app.log", "/var/log/old/App.LOG");
    assertThat(find(List.of("log"), false, first)).containsExactly("/var/log");
  }

  @Test
  void aPatternWithSlashMatchesPathsAnchoredAtTheRootOrAnyDirectory() throws IOException {
    assertThat(find(List.of("**/etc/*.conf"), false, first)).containsExactly("/etc/app.conf");
    assertThat(find(List.of("/etc/**.conf"), false, first))
        .containsExactly("/etc/app.conf", "/etc/nginx/site.conf");
    assertThat(find(List.of("nginx/*"), false, first)).containsExactly("/etc/nginx/site.conf");
    assertThat(find(List.of("/nginx/*"), false, first)).isEmpty();
    assertThat(find(List.of("/home/?/read[a-m]e.*"), false, first))
        .containsExactly("/home/x/readme.txt");
  }

  @Test
  void severalPatternsMatchEitherInPathOrder() throws IOException {
    assertThat(find(List.of("*.txt", "app.*"), false, first))
        .containsExactly("/etc/app.conf", "/home/x/readme.txt", "/var/log/app.log");
  }

  @Test
  void unchangedSubtreesAreReadOnceAcrossSnapshots() throws IOException {
    SnapshotFind find = new SnapshotFind(new SnapshotBrowser(trees), List.of("*"), false);
    List<SnapshotFind.Found> found = new ArrayList<>();
    find.search(
        List.of(first, second),
        new SnapshotFind.Selection(Set.of(), Set.of(), Set.of(), false, 0),
        found::add);
    assertThat(found).hasSize(2);
    assertThat(found.get(1).matches()).hasSize(found.get(0).matches().size()).hasSize(12);
    // Both roots and both /etc differ (app.conf changed); /etc/nginx, /var and /home are shared.
    assertThat(trees.treesRead).doesNotHaveDuplicates();
    assertThat(new HashSet<>(trees.treesRead)).hasSize(10);
  }

  @Test
  void theSelectionPicksSnapshotsOrdersThemAndLimitsTheMatches() throws IOException {
    SnapshotFind find = new SnapshotFind(new SnapshotBrowser(trees), List.of("*.conf"), false);
    List<SnapshotFind.Found> found = new ArrayList<>();
    find.search(
        List.of(first, second),
        new SnapshotFind.Selection(Set.of(), Set.of(), Set.of(), true, 3),
        found::add);
    assertThat(found).extracting(f -> f.snapshot().manifest().host()).containsExactly("db", "web");
    assertThat(found.get(1).matches()).hasSize(1);

    found.clear();
    find.search(
        List.of(first, second),
        new SnapshotFind.Selection(Set.of(), Set.of("web"), Set.of("/"), false, 0),
        found::add);
    assertThat(found).extracting(SnapshotFind.Found::snapshot).containsExactly(first);
    found.clear();
    find.search(
        List.of(first, second),
        new SnapshotFind.Selection(Set.of(second.id().hex()), Set.of(), Set.of("/srv"), false, 0),
        found::add);
    assertThat(found).isEmpty();
  }

  @Test
  void anEmptyPatternIsRefused() {
    assertThatThrownBy(() -> find(List.of(""), false, first))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> find(List.of(), false, first))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
