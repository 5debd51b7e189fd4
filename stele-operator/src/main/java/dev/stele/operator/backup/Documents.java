package dev.stele.operator.backup;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;

/**
 * How the operator's records inside snapshots ({@code backup.json}, {@code restore.json}) are
 * written and read: indented JSON with map keys sorted, so that an unchanged record encodes to the
 * same bytes (and chunk); a reader refuses a version it does not know. Which fields are left out
 * (nulls) and ignored (unknown ones) is said by each record's own annotations.
 */
public final class Documents {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  private Documents() {}

  /** A record with a version, its first field. */
  public interface Versioned {
    int version();
  }

  /** The document as JSON. */
  public static byte[] encode(Versioned document) {
    try {
      return JSON.writeValueAsBytes(document);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Reads {@code file} as a {@code type}, refusing any version but {@code version}.
   *
   * @throws IOException if it is not such JSON, or of another version
   */
  public static <T extends Versioned> T decode(byte[] json, Class<T> type, String file, int version)
      throws IOException {
    T d = JSON.readValue(json, type);
    if (d.version() != version) {
      throw new IOException(file + " version " + d.version() + " is not supported");
    }
    return d;
  }
}
