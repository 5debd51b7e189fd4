package dev.stele.server;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.repo.Id;
import dev.stele.repo.Location;
import dev.stele.repo.Repository;
import dev.stele.snapshot.ChunkReader;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Many chunks in one request, for a restore through the server (docs/server.md, "Chunks in
 * batches"): {@code POST /api/v1/chunks/lengths} answers each chunk's plain length, {@code POST
 * /api/v1/chunks} streams the chunks themselves. Each id is checked as {@code GET
 * /api/v1/chunks/{id}} checks it: one the user's snapshots do not reach is answered as one that
 * does not exist — a null length, or the whole batch refused with {@code 404 no such chunk} before
 * a byte is sent.
 */
final class ChunkBatch {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_BODY = 128 << 10;

  /** A chunk, framed: status 0, its length, its plain bytes. */
  static final int CHUNK = 0;

  /** A chunk that cannot be read, framed: status 1, the length of a UTF-8 line saying why, it. */
  static final int DAMAGED = 1;

  private ChunkBatch() {}

  /** The request's body. */
  record Ids(@Nullable List<String> ids) {}

  /**
   * Reads the ids of the request: at most {@link ChunkReader#MAX_IDS}; one that is not hex is null.
   */
  static List<@Nullable Id> ids(Api.Request r) throws Refusal, IOException {
    Ids body;
    try {
      body = JSON.readValue(r.exchange.getRequestBody().readNBytes(MAX_BODY), Ids.class);
    } catch (JacksonException e) {
      body = null;
    }
    if (body == null || body.ids() == null) {
      throw new Refusal(400, "expected JSON: {\"ids\": [chunk id, …]}");
    }
    if (body.ids().size() > ChunkReader.MAX_IDS) {
      throw new Refusal(400, "at most " + ChunkReader.MAX_IDS + " ids in one request");
    }
    r.path = body.ids().size() + " ids";
    List<@Nullable Id> ids = new ArrayList<>(body.ids().size());
    for (String hex : body.ids()) {
      ids.add(parse(hex));
    }
    return ids;
  }

  private static @Nullable Id parse(@Nullable String hex) {
    try {
      return hex == null ? null : Id.parse(hex);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** {@code {"lengths": [n or null, …]}}, in the order of the ids. */
  static Map<String, List<@Nullable Integer>> lengths(
      Repository repo, List<@Nullable Id> ids, Api.MayRead mayRead) throws IOException {
    List<@Nullable Integer> lengths = new ArrayList<>(ids.size());
    for (Id id : ids) {
      Location where = id != null && mayRead.test(id) ? repo.locate(id) : null;
      lengths.add(where == null ? null : where.entry().rawLength());
    }
    return Map.of("lengths", lengths);
  }

  /** Streams the chunks, once every id is known to be the user's; returns the bytes sent. */
  static long contents(Api.Request r, Repository repo, List<@Nullable Id> ids, Api.MayRead mayRead)
      throws Refusal, IOException {
    for (Id id : ids) {
      if (id == null || !mayRead.test(id) || repo.locate(id) == null) {
        throw Refusal.notFound("chunk");
      }
    }
    r.exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
    r.answered = true;
    r.exchange.sendResponseHeaders(200, 0); // chunked: the lengths are known, failures are not
    long sent = 0;
    DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(r.exchange.getResponseBody(), 1 << 16));
    for (Id id : ids) {
      byte[] data;
      int status = CHUNK;
      try {
        data = repo.readChunk(id);
      } catch (IOException e) {
        status = DAMAGED;
        data = (id.shortHex() + ": " + e.getMessage()).getBytes(StandardCharsets.UTF_8);
      }
      out.writeByte(status);
      out.writeInt(data.length);
      out.write(data);
      sent += data.length;
    }
    out.close();
    return sent;
  }
}
