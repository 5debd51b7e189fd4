package dev.stele.repo;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
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
   * blob from a newer Stele gets a clear error even if its fields no longer map. The version is
   * found by a streaming pass that stops at it (it comes first in every blob Stele writes), and the
   * blob is then bound in one pass, without an intermediate tree.
   *
   * @throws CorruptBlobException if it is not JSON, or {@code version} is missing or below 1
   * @throws UnsupportedVersionException if {@code version} is above {@code supported}
   */
  public static <T> T readVersioned(String blob, byte[] json, Class<T> type, int supported)
      throws IOException {
    int version = version(blob, json);
    if (version < 1) {
      throw new CorruptBlobException(blob, "invalid version " + version);
    }
    if (version > supported) {
      throw new UnsupportedVersionException(blob, version, supported);
    }
    try {
      return MAPPER.readValue(json, type);
    } catch (IOException | IllegalArgumentException e) {
      throw new CorruptBlobException(blob, "malformed " + type.getSimpleName(), e);
    }
  }

  /** The top-level {@code version} of a JSON object, read without reading the rest. */
  private static int version(String blob, byte[] json) throws CorruptBlobException {
    try (JsonParser parser = MAPPER.getFactory().createParser(json)) {
      if (parser.nextToken() == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          boolean isVersion = parser.currentName().equals("version");
          JsonToken value = parser.nextToken();
          if (isVersion) {
            if (value == JsonToken.VALUE_NUMBER_INT
                && parser.getNumberType() == JsonParser.NumberType.INT) {
              return parser.getIntValue();
            }
            break;
          }
          parser.skipChildren();
        }
      }
    } catch (IOException e) {
      throw new CorruptBlobException(blob, "not JSON", e);
    }
    throw new CorruptBlobException(blob, "no version field");
  }
}
