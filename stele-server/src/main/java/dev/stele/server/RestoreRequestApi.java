package dev.stele.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.repo.SnapshotManifest;
import dev.stele.snapshot.SnapshotBrowser;
import dev.stele.snapshot.SnapshotCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@code POST /api/v1/snapshots/{id}/restore-requests}: the checks before a restore request goes to
 * {@link RestoreRequests}. The snapshot is one the user may read (the caller found it so), a pod
 * volume's (its tag and its pod namespace, pod and volume labels), and it has the path; the path is
 * one inside the volume, without {@code ..}.
 */
final class RestoreRequestApi {
  static final String POD_VOLUME_TAG = "pod-volume";
  static final String NAMESPACE_LABEL = "stele.dev/pod-namespace";
  static final String POD_LABEL = "stele.dev/pod-name";
  static final String VOLUME_LABEL = "stele.dev/volume";
  private static final ObjectMapper BODY =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private static final int MAX_BODY = 16 << 10;

  private RestoreRequestApi() {}

  /** The request's body. */
  record Body(@Nullable String path, @Nullable Boolean overwrite) {}

  /** The request's body, up to 16 KiB; the rest is read and dropped. */
  static byte[] read(InputStream in) throws IOException {
    byte[] body = in.readNBytes(MAX_BODY);
    in.transferTo(OutputStream.nullOutputStream());
    return body;
  }

  /** Checks the request and makes it; gives it as listed. */
  static RestoreRequests.Request create(
      RestoreRequests requests,
      SnapshotBrowser browser,
      String user,
      SnapshotCatalog.Entry snapshot,
      byte[] bytes)
      throws Refusal, IOException {
    Body body;
    try {
      body = BODY.readValue(bytes, Body.class);
    } catch (IOException e) {
      throw new Refusal(400, "the body is {\"path\": \"/…\", \"overwrite\": false}");
    }
    String path = body == null ? null : body.path();
    if (path == null || !path.startsWith("/") || ("/" + path + "/").contains("/../")) {
      throw new Refusal(400, "path: an absolute path inside the volume, without ..");
    }
    SnapshotManifest m = snapshot.manifest();
    Map<String, String> labels = m.labels();
    String namespace = labels.get(NAMESPACE_LABEL);
    String pod = labels.get(POD_LABEL);
    String volume = labels.get(VOLUME_LABEL);
    if (!m.tags().contains(POD_VOLUME_TAG)
        || namespace == null
        || pod == null
        || volume == null
        || m.paths().isEmpty()) {
      throw new Refusal(400, "snapshot " + snapshot.id().hex() + " is not a pod volume's");
    }
    try {
      browser.find(m, m.paths().get(0) + (path.equals("/") ? "" : path));
    } catch (NoSuchFileException e) {
      throw Refusal.notFound("path in the snapshot");
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, "path refused: " + e.getMessage());
    }
    try {
      return requests.create(
          new RestoreRequests.Ask(
              user,
              snapshot.id().hex(),
              namespace,
              pod,
              volume,
              path,
              Boolean.TRUE.equals(body.overwrite())));
    } catch (RestoreRequests.Refused e) {
      throw new Refusal(409, String.valueOf(e.getMessage()));
    }
  }
}
