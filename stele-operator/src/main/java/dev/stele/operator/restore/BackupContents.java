package dev.stele.operator.restore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stele.operator.backup.BackupDocument;
import dev.stele.operator.backup.SmallSnapshot;
import dev.stele.repo.Id;
import dev.stele.repo.Repository;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.Node;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a restore reads from a backup's snapshot: {@code backup.json} (null for backups taken before
 * it existed, which had no volumes) and every document under {@code resources/}. Files elsewhere in
 * that directory, or that are not JSON objects, are reported as warnings and left out.
 *
 * @param document the backup's record, or null
 * @param objects the API objects, in the snapshot's order
 * @param warnings what could not be read
 */
record BackupContents(
    BackupDocument document, List<BackedUpObject> objects, List<String> warnings) {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String CLUSTER = "_cluster";

  static BackupContents read(Repository repo, Id snapshot) throws IOException {
    SnapshotManifest manifest = new SnapshotCatalog(repo).read(snapshot);
    SnapshotBrowser browser = new SnapshotBrowser(repo);
    BackupDocument document = null;
    try {
      document = BackupDocument.decode(SmallSnapshot.read(repo, manifest, BackupDocument.FILE));
    } catch (NoSuchFileException e) {
      // a backup taken before backup.json existed: resources only
    }
    List<BackedUpObject> objects = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    Node resources;
    try {
      resources = browser.find(manifest, BackupDocument.RESOURCES);
    } catch (NoSuchFileException e) {
      return new BackupContents(document, objects, warnings);
    }
    for (SnapshotBrowser.Entry e : browser.list(resources, BackupDocument.RESOURCES, true)) {
      if (!e.node().isFile()) {
        continue;
      }
      // resources/<group>/<resource>/<namespace>/<name>.json
      String[] part = e.path().split("/", -1);
      if (part.length != 5 || !part[4].endsWith(".json")) {
        warnings.add(e.path() + ": not where a backed-up object belongs; left out");
        continue;
      }
      JsonNode json;
      try {
        json = JSON.readTree(bytes(browser, e.node()));
      } catch (IOException bad) {
        warnings.add(e.path() + ": not JSON; left out");
        continue;
      }
      if (!(json instanceof ObjectNode object)
          || !object.path("apiVersion").isTextual()
          || !object.path("kind").isTextual()) {
        warnings.add(e.path() + ": not an API object; left out");
        continue;
      }
      String name =
          object.path("metadata").path("name").asText(part[4].replaceFirst("\\.json$", ""));
      objects.add(
          new BackedUpObject(
              part[1].equals("core") ? "" : part[1],
              part[2],
              part[3].equals(CLUSTER) ? null : part[3],
              name,
              object));
    }
    return new BackupContents(document, objects, warnings);
  }

  private static byte[] bytes(SnapshotBrowser browser, Node file) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    browser.cat(file, out);
    return out.toByteArray();
  }
}
