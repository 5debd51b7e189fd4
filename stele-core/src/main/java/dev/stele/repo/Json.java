package dev.stele.repo;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The Jackson mapping of JSON that is not a repository's own blob: the command line's JSON output,
 * the repository server's API and its upload header. ISO-8601 instants, no nulls, unknowns allowed,
 * as docs/format.md §13. The repository's blobs are read and written field by field ({@link
 * JsonObject}, {@link JsonWriter}), to the same conventions: this mapper's first use costs a fresh
 * JVM about a tenth of a second, which every command on a repository paid in its open.
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
}
