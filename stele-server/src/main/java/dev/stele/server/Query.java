package dev.stele.server;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A request's query string as names, each with its values in order ({@code ?a=1&a=2&b}). */
final class Query {
  private final Map<String, List<String>> values = new HashMap<>();

  Query(@Nullable String raw) throws Refusal {
    if (raw == null || raw.isEmpty()) {
      return;
    }
    for (String pair : raw.split("&", -1)) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
    }
  }

  private static String decode(String s) throws Refusal {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new Refusal(400, "query refused: " + e.getMessage());
    }
  }

  List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }

  /** True if {@code name} is given as {@code true} or without a value. */
  boolean flag(String name) {
    return all(name).stream().anyMatch(v -> v.isEmpty() || v.equals("true"));
  }

  /** The number {@code name} gives (the last, if several), or {@code otherwise}. */
  int number(String name, int otherwise) throws Refusal {
    List<String> v = all(name);
    if (v.isEmpty()) {
      return otherwise;
    }
    try {
      int n = Integer.parseInt(v.get(v.size() - 1));
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new Refusal(400, name + " must be a number, 0 or more");
    }
  }
}
