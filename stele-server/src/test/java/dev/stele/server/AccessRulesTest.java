package dev.stele.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stele.repo.SnapshotManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a rule matches: every non-empty field, each a list of alternatives. */
class AccessRulesTest {
  @TempDir Path tmp;

  private static SnapshotManifest snapshot(
      String host, List<String> paths, List<String> tags, Map<String, String> labels) {
    return new SnapshotManifest(
        1, Instant.EPOCH, host, "u", paths, tags, null, "00", null, null, labels);
  }

  private AccessRules rules(String json) throws IOException {
    Path file = tmp.resolve("access.json");
    Files.writeString(file, json);
    return AccessRules.read(file);
  }

  private static final SnapshotManifest VOLUME =
      snapshot(
          "node-1",
          List.of("/"),
          List.of("pod-volume"),
          Map.of(
              "stele.dev/pod-namespace", "shop",
              "stele.dev/backup-name", "nightly",
              "team", "a"));

  private static final SnapshotManifest LAPTOP =
      snapshot("laptop", List.of("/home/ann/docs"), List.of(), Map.of());

  @Test
  void everyNonEmptyFieldMustMatch() throws IOException {
    AccessRules r =
        rules(
            "{\"rules\": [{\"users\": [\"ann\"], \"namespaces\": [\"shop\"], \"tags\": [\"x\","
                + " \"pod-volume\"], \"labels\": {\"team\": \"a\"}}]}");
    assertThat(r.mayRead("ann", VOLUME)).isTrue();
    assertThat(r.mayRead("bob", VOLUME)).isFalse();
    assertThat(
            rules(
                    "{\"rules\": [{\"users\": [\"ann\"], \"namespaces\": [\"shop\"],"
                        + " \"labels\": {\"team\": \"b\"}}]}")
                .mayRead("ann", VOLUME))
        .isFalse();
    assertThat(
            rules("{\"rules\": [{\"users\": [\"ann\"], \"backups\": [\"nightly\"]}]}")
                .mayRead("ann", VOLUME))
        .isTrue();
    // A namespace rule never matches a snapshot without a pod namespace.
    assertThat(
            rules("{\"rules\": [{\"users\": [\"ann\"], \"namespaces\": [\"shop\"]}]}")
                .mayRead("ann", LAPTOP))
        .isFalse();
  }

  @Test
  void pathPrefixesMatchWholeSegments() throws IOException {
    String rule =
        "{\"rules\": [{\"users\": [\"ann\"], \"hosts\": [\"laptop\"], \"paths\": [\"%s\"]}]}";
    assertThat(rules(rule.formatted("/home/ann")).mayRead("ann", LAPTOP)).isTrue();
    assertThat(rules(rule.formatted("/home/ann/")).mayRead("ann", LAPTOP)).isTrue();
    assertThat(rules(rule.formatted("/home/ann/docs")).mayRead("ann", LAPTOP)).isTrue();
    assertThat(rules(rule.formatted("/home/an")).mayRead("ann", LAPTOP)).isFalse();
    assertThat(rules(rule.formatted("/home/ann/docs/sub")).mayRead("ann", LAPTOP)).isFalse();
  }

  @Test
  void onlyAppendRulesAndAdminsAllowCreatingSnapshots() throws IOException {
    AccessRules r =
        rules(
            "{\"admins\": [\"carol\"], \"rules\": [{\"users\": [\"ann\"], \"hosts\": [\"laptop\"]},"
                + " {\"users\": [\"bob\"], \"access\": \"Append\", \"hosts\": [\"laptop\"]}]}");
    assertThat(r.mayRead("ann", LAPTOP)).isTrue();
    assertThat(r.mayAppend("ann", LAPTOP)).isFalse();
    assertThat(r.mayAppend("bob", LAPTOP)).isTrue();
    assertThat(r.mayAppend("bob", VOLUME)).isFalse();
    assertThat(r.mayRead("carol", VOLUME)).isTrue();
    assertThat(r.mayAppend("carol", LAPTOP)).isTrue();
  }

  @Test
  void aSnapshotIsCreatedOnlyIfEveryOneOfItsPathsLiesUnderTheRule() throws IOException {
    AccessRules r =
        rules(
            "{\"rules\": [{\"users\": [\"bob\"], \"access\": \"Append\","
                + " \"paths\": [\"/home/ann\"]}]}");
    SnapshotManifest wider =
        snapshot("laptop", List.of("/etc", "/home/ann/docs"), List.of(), Map.of());
    assertThat(r.mayRead("bob", wider)).isTrue();
    assertThat(r.mayAppend("bob", wider)).isFalse();
    assertThat(r.mayAppend("bob", LAPTOP)).isTrue();
  }

  @Test
  void aMisspeltFieldIsRefusedRatherThanIgnored() {
    assertThatThrownBy(() -> rules("{\"rules\": [{\"users\": [\"ann\"], \"namespace\": [\"x\"]}]}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("does not parse")
        .hasMessageContaining("namespace");
  }

  @Test
  void limitsArePerUserAndMustBePositiveAndSpeltRight() throws IOException {
    AccessRules r = rules("{\"limits\": {\"bob\": {\"downloadBytesPerSecond\": 1000000}}}");
    assertThat(r.downloadLimit("bob")).isEqualTo(1_000_000L);
    assertThat(r.downloadLimit("ann")).isNull();
    assertThatThrownBy(() -> rules("{\"limits\": {\"bob\": {\"downloadBytesPerSecond\": 0}}}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("downloadBytesPerSecond must be positive, not 0");
    assertThatThrownBy(() -> rules("{\"limits\": {\"bob\": {\"downloadBytesPerSec\": 5}}}"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("downloadBytesPerSec");
  }
}
