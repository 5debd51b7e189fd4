package dev.stele.repo;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one JSON mapping used for every JSON blob: ISO-8601 instants, no nulls, unknowns allowed. */
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
   * Reads a JSON blob with a {@code version} field, checking the version before the rest, so that a
   * blob from a newer Stele gets a clear error even if its fields no longer map.
   *
   * @throws CorruptBlobException if it is not JSON, or {@code version} is missing or below 1
   * @throws UnsupportedVersionException if {@code version} is above {@code supported}
   */
  public static <T> T readVersioned(String blob, byte[] json, Class<T> type, int supported)
      throws IOException {
    JsonNode tree;
    try {
      tree = MAPPER.readTree(json);
    } catch (IOException e) {
      throw new CorruptBlobException(blob, "not JSON", e);
    }
    JsonNode version = tree == null ? null : tree.get("version");
    if (version == null || !version.canConvertToInt()) {
      throw new CorruptBlobException(blob, "no version field");
    }
    if (version.intValue() < 1) {
      throw new CorruptBlobException(blob, "invalid version " + version.intValue());
    }
    if (version.intValue() > supported) {
      throw new UnsupportedVersionException(blob, version.intValue(), supported);
    }
    try {
      return MAPPER.treeToValue(tree, type);
    } catch (IOException | IllegalArgumentException e) {
      throw new CorruptBlobException(blob, "malformed " + type.getSimpleName(), e);
    }
  }
}
