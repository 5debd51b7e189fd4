package dev.stele.repo;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One JSON object of a blob, read whole with Jackson's streaming parser, and its fields by type, as
 * docs/format.md §13 writes them: the blobs every open and every listing reads (the format, key
 * blobs, snapshot manifests, tombstones) are read through this, not through {@link Json#MAPPER},
 * whose first use in a fresh JVM took some 0.1 s of each command's start.
 *
 * <p>As the mapper read them: fields in any order, unknown ones ignored, a missing or null field
 * null (0 for a number, empty for a list or map), the last of a repeated name wins. A field of the
 * wrong type makes the blob corrupt, named.
 */
final class JsonObject {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final String blob;
  private final Map<String, @Nullable Object> fields;

  private JsonObject(String blob, Map<String, @Nullable Object> fields) {
    this.blob = blob;
    this.fields = fields;
  }

  /**
   * The object {@code json} holds.
   *
   * @throws CorruptBlobException naming {@code blob} if it is not JSON or not an object
   */
  static JsonObject parse(String blob, byte[] json) throws CorruptBlobException {
    Object value;
    try (JsonParser parser = FACTORY.createParser(json)) {
      value = value(parser, parser.nextToken());
      if (parser.nextToken() != null) {
        throw new CorruptBlobException(blob, "not JSON: more after the object");
      }
    } catch (IOException | IllegalStateException e) {
      throw new CorruptBlobException(blob, "not JSON", e);
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new CorruptBlobException(blob, "not a JSON object");
    }
    return new JsonObject(blob, cast(map));
  }

  /**
   * The object {@code json} holds, once its top-level {@code version} is known to be one this Stele
   * reads: a blob from a newer Stele gets that error, not one about fields it cannot map.
   *
   * @throws CorruptBlobException if it is not a JSON object, or {@code version} is missing, not an
   *     int or below 1
   * @throws UnsupportedVersionException if {@code version} is above {@code supported}
   */
  static JsonObject versioned(String blob, byte[] json, int supported)
      throws CorruptBlobException, UnsupportedVersionException {
    JsonObject object = parse(blob, json);
    if (!(object.fields.get("version") instanceof Integer version)) {
      throw new CorruptBlobException(blob, "no version field");
    }
    if (version < 1) {
      throw new CorruptBlobException(blob, "invalid version " + version);
    }
    if (version > supported) {
      throw new UnsupportedVersionException(blob, version, supported);
    }
    return object;
  }

  @Nullable String string(String name) throws CorruptBlobException {
    return field(name, String.class);
  }

  int integer(String name) throws CorruptBlobException {
    Integer v = field(name, Integer.class);
    return v == null ? 0 : v;
  }

  long longInteger(String name) throws CorruptBlobException {
    Number v = field(name, Number.class);
    if (v == null) {
      return 0;
    }
    if (v instanceof Double) {
      throw malformed(name);
    }
    return v.longValue();
  }

  double decimal(String name) throws CorruptBlobException {
    Number v = field(name, Number.class);
    return v == null ? 0 : v.doubleValue();
  }

  @Nullable Instant instant(String name) throws CorruptBlobException {
    return parsed(name, Instant::parse);
  }

  @Nullable Duration duration(String name) throws CorruptBlobException {
    return parsed(name, Duration::parse);
  }

  /** A byte array, written as standard base64 with padding. */
  byte @Nullable [] bytes(String name) throws CorruptBlobException {
    return parsed(name, Base64.getDecoder()::decode);
  }

  <E extends Enum<E>> @Nullable E constant(String name, Class<E> type) throws CorruptBlobException {
    return parsed(name, v -> Enum.valueOf(type, v));
  }

  List<String> strings(String name) throws CorruptBlobException {
    List<?> v = field(name, List.class);
    if (v == null) {
      return List.of();
    }
    List<String> result = new ArrayList<>(v.size());
    for (Object o : v) {
      if (!(o instanceof String s)) {
        throw malformed(name);
      }
      result.add(s);
    }
    return result;
  }

  Map<String, String> stringMap(String name) throws CorruptBlobException {
    Map<?, ?> v = field(name, Map.class);
    if (v == null) {
      return Map.of();
    }
    Map<String, String> result = new HashMap<>();
    for (Map.Entry<?, ?> e : v.entrySet()) {
      if (!(e.getValue() instanceof String s)) {
        throw malformed(name);
      }
      result.put((String) e.getKey(), s);
    }
    return result;
  }

  @Nullable JsonObject object(String name) throws CorruptBlobException {
    Map<?, ?> v = field(name, Map.class);
    return v == null ? null : new JsonObject(blob, cast(v));
  }

  /** The blob is not what its type says: for a value its fields do not make (a record's checks). */
  CorruptBlobException malformed(String what, Throwable cause) {
    return new CorruptBlobException(blob, "malformed " + what, cause);
  }

  /** The blob lacks field {@code name}, which its type needs. */
  CorruptBlobException missing(String name) {
    return new CorruptBlobException(blob, "no field " + name);
  }

  private CorruptBlobException malformed(String name) {
    return new CorruptBlobException(blob, "malformed field " + name);
  }

  /** A string field as {@code parse} reads it; malformed where it throws. */
  private <T> @Nullable T parsed(String name, Function<String, T> parse)
      throws CorruptBlobException {
    String v = string(name);
    try {
      return v == null ? null : parse.apply(v);
    } catch (DateTimeParseException | IllegalArgumentException e) {
      throw malformed(name);
    }
  }

  private <T> @Nullable T field(String name, Class<T> type) throws CorruptBlobException {
    Object v = fields.get(name);
    if (v == null) {
      return null;
    }
    if (!type.isInstance(v)) {
      throw malformed(name);
    }
    return type.cast(v);
  }

  /** The value starting at {@code token}: a map, list, string, Integer, Long, Double, or null. */
  private static @Nullable Object value(JsonParser parser, @Nullable JsonToken token)
      throws IOException {
    if (token == null) {
      throw new IllegalStateException("no JSON value");
    }
    switch (token) {
      case START_OBJECT -> {
        Map<String, @Nullable Object> map = new HashMap<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
          String name = parser.currentName();
          map.put(name, value(parser, parser.nextToken()));
        }
        return map;
      }
      case START_ARRAY -> {
        List<@Nullable Object> list = new ArrayList<>();
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
          list.add(value(parser, t));
        }
        return list;
      }
      case VALUE_STRING -> {
        return parser.getText();
      }
      case VALUE_NUMBER_INT -> {
        return switch (parser.getNumberType()) {
          case INT -> parser.getIntValue();
          case LONG -> parser.getLongValue();
          default -> parser.getDoubleValue(); // beyond a long: no field of ours
        };
      }
      case VALUE_NUMBER_FLOAT -> {
        return parser.getDoubleValue();
      }
      case VALUE_TRUE -> {
        return true;
      }
      case VALUE_FALSE -> {
        return false;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IllegalStateException("unexpected " + token);
    }
  }

  @SuppressWarnings("unchecked") // keys of a parsed object are its field names
  private static Map<String, @Nullable Object> cast(Map<?, ?> map) {
    return (Map<String, @Nullable Object>) map;
  }
}
