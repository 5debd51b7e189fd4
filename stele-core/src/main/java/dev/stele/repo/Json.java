package dev.stele.repo;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The Jackson mapping of the JSON blobs that are bound to records by reflection (maintenance
 * records, the server's upload header) and of the command line's JSON output: ISO-8601 instants, no
 * nulls, unknowns allowed, as docs/format.md §13. The blobs every open and listing reads (the
 * format, key blobs, snapshot manifests, tombstones) are read and written field by field instead
 * ({@link JsonObject}, {@link JsonWriter}), to the same conventions: this mapper's first use costs
 * a fresh JVM about a tenth of a second.
 */
public final class Json {
  public static final ObjectMapper MAPPER =
      new ObjectMapper()
          .registerModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);

  private Json() {}

  public static byte[] write(Object value) {
    try {
      return MAPPER.writeValueAsBytes(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static <T> T read(byte[] json, Class<T> type) throws IOException {
    return MAPPER.readValue(json, type);
  }

  /**
   * Reads a JSON blob with a {@code version} field, checking the version first ({@link
   * JsonObject#versioned}), so that a blob from a newer Stele gets a clear error even if its fields
   * no longer map.
   *
   * @throws CorruptBlobException if it is not JSON, or {@code version} is missing or below 1
   * @throws UnsupportedVersionException if {@code version} is above {@code supported}
   */
  public static <T> T readVersioned(String blob, byte[] json, Class<T> type, int supported)
      throws IOException {
    JsonObject.versioned(blob, json, supported);
    try {
      return MAPPER.readValue(json, type);
    } catch (IOException | IllegalArgumentException e) {
      throw new CorruptBlobException(blob, "malformed " + type.getSimpleName(), e);
    }
  }
}
