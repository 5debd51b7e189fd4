package dev.stele.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintStream;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The audit log: one JSON object per line for each request, written as it ends, for a log collector
 * to read. It never holds a password, a token or a key: the fields below are all it has.
 */
final class Audit {
  /**
   * One request.
   *
   * @param time when it ended
   * @param user who made it, or null before a login
   * @param address the client's address
   * @param action what was asked (login, snapshots, ls, stat, download, tree, chunk, …)
   * @param snapshot the snapshot id asked for, if any
   * @param path the path or object id asked for, if any
   * @param bytes bytes of content sent
   * @param allowed whether it was served
   * @param reason why it was refused (the error line the client got), or null
   */
  record Line(
      String time,
      @Nullable String user,
      String address,
      String action,
      @Nullable String snapshot,
      @Nullable String path,
      long bytes,
      boolean allowed,
      @Nullable String reason) {}

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final PrintStream out;

  Audit(PrintStream out) {
    this.out = out;
  }

  void write(
      Instant time,
      @Nullable String user,
      String address,
      String action,
      @Nullable String snapshot,
      @Nullable String path,
      long bytes,
      @Nullable String refusal) {
    Line line =
        new Line(
            time.toString(),
            user,
            address,
            action,
            snapshot,
            path,
            bytes,
            refusal == null,
            refusal);
    try {
      String json = MAPPER.writeValueAsString(line);
      synchronized (out) {
        out.println(json);
        out.flush();
      }
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
