package dev.stele.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stele.repo.Id;
import dev.stele.repo.Json;
import dev.stele.snapshot.ChunkReader;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A restore's chunks from a repository server, many to a request: {@code POST
 * /api/v1/chunks/lengths} and {@code POST /api/v1/chunks} (docs/server.md, "Chunks in batches").
 */
final class ServerChunks implements ChunkReader {
  private static final int CHUNK = 0;
  private static final int DAMAGED = 1;

  private final ServerClient client;

  ServerChunks(ServerClient client) {
    this.client = client;
  }

  @Override
  public int[] lengths(List<Id> ids) throws IOException {
    JsonNode lengths =
        Json.MAPPER.readTree(client.post("/api/v1/chunks/lengths", body(ids))).path("lengths");
    if (lengths.size() != ids.size()) {
      throw new IOException("server: " + lengths.size() + " lengths for " + ids.size() + " ids");
    }
    int[] out = new int[ids.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = lengths.get(i).isInt() ? lengths.get(i).intValue() : -1;
    }
    return out;
  }

  @Override
  public void read(List<Id> ids, Sink sink) throws IOException {
    try (InputStream body = client.postStream("/api/v1/chunks", body(ids));
        DataInputStream in = new DataInputStream(body)) {
      for (Id id : ids) {
        int status;
        byte[] data;
        try {
          status = in.readUnsignedByte();
          data = new byte[in.readInt()];
          in.readFully(data);
        } catch (EOFException e) {
          throw new IOException("server: the chunks' answer ended early", e);
        }
        switch (status) {
          case CHUNK -> sink.chunk(id, data);
          case DAMAGED -> sink.failed(id, new String(data, StandardCharsets.UTF_8));
          default -> throw new IOException("server: unknown chunk status " + status);
        }
      }
    }
  }

  private static Map<String, List<String>> body(List<Id> ids) {
    return Map.of("ids", ids.stream().map(Id::hex).toList());
  }
}
