package dev.stele.repo;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Writes one JSON object field by field with Jackson's streaming generator, by docs/format.md §13:
 * compact UTF-8, fields in the order written, null fields left out, instants and durations as
 * ISO-8601 strings, bytes as standard base64 with padding, enums by name. {@link JsonObject} reads
 * what it writes; so did the mapper, which wrote these blobs before.
 */
final class JsonWriter {
  private static final JsonFactory FACTORY = new JsonFactory();

  /** The fields of one object. */
  interface Fields {
    void write(JsonWriter out) throws IOException;
  }

  private final JsonGenerator generator;

  private JsonWriter(JsonGenerator generator) {
    this.generator = generator;
  }

  /** The object {@code fields} writes, as bytes. */
  static byte[] object(Fields fields) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (JsonGenerator generator = FACTORY.createGenerator(bytes)) {
      generator.writeStartObject();
      fields.write(new JsonWriter(generator));
      generator.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // into memory: not expected
    }
    return bytes.toByteArray();
  }

  JsonWriter string(String name, @Nullable String value) throws IOException {
    if (value != null) {
      generator.writeStringField(name, value);
    }
    return this;
  }

  JsonWriter number(String name, long value) throws IOException {
    generator.writeNumberField(name, value);
    return this;
  }

  JsonWriter number(String name, double value) throws IOException {
    generator.writeNumberField(name, value);
    return this;
  }

  JsonWriter instant(String name, @Nullable Instant value) throws IOException {
    return string(name, value == null ? null : value.toString());
  }

  JsonWriter duration(String name, @Nullable Duration value) throws IOException {
    return string(name, value == null ? null : value.toString());
  }

  JsonWriter bytes(String name, byte @Nullable [] value) throws IOException {
    if (value != null) {
      generator.writeFieldName(name);
      generator.writeBinary(value);
    }
    return this;
  }

  JsonWriter constant(String name, @Nullable Enum<?> value) throws IOException {
    return string(name, value == null ? null : value.name());
  }

  JsonWriter strings(String name, @Nullable List<String> values) throws IOException {
    if (values != null) {
      generator.writeArrayFieldStart(name);
      for (String v : values) {
        generator.writeString(v);
      }
      generator.writeEndArray();
    }
    return this;
  }

  /** A map of strings, its keys in order. */
  JsonWriter stringMap(String name, @Nullable Map<String, String> values) throws IOException {
    if (values != null) {
      generator.writeObjectFieldStart(name);
      for (Map.Entry<String, String> e : new TreeMap<>(values).entrySet()) {
        generator.writeStringField(e.getKey(), e.getValue());
      }
      generator.writeEndObject();
    }
    return this;
  }

  JsonWriter object(String name, @Nullable Fields fields) throws IOException {
    if (fields != null) {
      generator.writeObjectFieldStart(name);
      fields.write(this);
      generator.writeEndObject();
    }
    return this;
  }
}
