package dev.stele.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stele.repo.Id;
import dev.stele.repo.Json;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.FileRestore;
import dev.stele.snapshot.FileRestoreListener;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import dev.stele.snapshot.UploadStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Snapshots through a repository server: the ones the user's access rules give, their trees from
 * {@code /api/v1/trees/{id}} and file contents from {@code /api/v1/chunks/{id}} (a restore's many
 * at a time, {@link ServerChunks}), which the server serves only when they are reachable from those
 * snapshots. Nothing is decrypted here: the server holds the key.
 */
final class ServerSource implements SnapshotSource {
  private final ServerClient client;

  ServerSource(ServerClient client) {
    this.client = client;
  }

  @Override
  public SnapshotCatalog.Scan scan() throws IOException {
    List<SnapshotCatalog.Entry> live = new ArrayList<>();
    for (JsonNode s : client.json("/api/v1/snapshots")) {
      live.add(new SnapshotCatalog.Entry(Id.parse(s.path("id").asText()), manifest(s)));
    }
    return new SnapshotCatalog.Scan(live, List.of());
  }

  @Override
  public SnapshotCatalog.Entry resolve(String spec) throws IOException {
    SnapshotCatalog.Scan scan = scan();
    Id id = SnapshotCatalog.resolveIn(spec, scan);
    return scan.live().stream().filter(e -> e.id().equals(id)).findFirst().orElseThrow();
  }

  @Override
  public SnapshotBrowser browser() {
    return new SnapshotBrowser(objects());
  }

  /** The trees and chunks the user's snapshots reach, as the server serves them. */
  SnapshotBrowser.ObjectSource objects() {
    return new SnapshotBrowser.ObjectSource() {
      @Override
      public byte[] tree(Id id) throws IOException {
        return client.get("/api/v1/trees/" + id.hex());
      }

      @Override
      public byte[] chunk(Id id) throws IOException {
        return client.get("/api/v1/chunks/" + id.hex());
      }
    };
  }

  /** Creates a snapshot through the server from the upload {@code body} writes. */
  SnapshotCatalog.Entry create(ServerClient.Body body) throws IOException {
    JsonNode s = client.upload("/api/v1/snapshots", UploadStream.MEDIA_TYPE, body);
    return new SnapshotCatalog.Entry(Id.parse(s.path("id").asText()), manifest(s));
  }

  @Override
  public FileRestore restore(int threads, FileRestoreListener listener) {
    return new FileRestore(browser(), new ServerChunks(client), threads, listener);
  }

  /** The manifest as the server lists it (docs/server.md, {@code GET /api/v1/snapshots}). */
  private static SnapshotManifest manifest(JsonNode s) throws IOException {
    JsonNode stats = s.path("stats");
    return new SnapshotManifest(
        SnapshotManifest.VERSION,
        Instant.parse(s.path("time").asText()),
        s.path("host").asText(),
        text(s, "user"),
        Json.MAPPER.convertValue(s.path("paths"), stringList()),
        Json.MAPPER.convertValue(s.path("tags"), stringList()),
        text(s, "parent"),
        s.path("tree").asText(),
        s.hasNonNull("expires") ? Instant.parse(s.path("expires").asText()) : null,
        stats.isObject() ? Json.MAPPER.treeToValue(stats, SnapshotManifest.Stats.class) : null,
        Json.MAPPER.convertValue(s.path("labels"), stringMap()));
  }

  private static String text(JsonNode s, String field) {
    return s.hasNonNull(field) ? s.path(field).asText() : null;
  }

  private static TypeReference<List<String>> stringList() {
    return new TypeReference<>() {};
  }

  private static TypeReference<Map<String, String>> stringMap() {
    return new TypeReference<>() {};
  }

  @Override
  public void close() {
    client.logout();
  }
}
