package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
import dev.stele.k8s.api.LabelSelectors;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks of what a person types for the API server, done before anything is sent, so that a typo
 * gets one line naming the option instead of the server's validation error: resource and namespace
 * names, label selectors, namespace mappings.
 */
final class KubeNames {
  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private KubeNames() {}

  /** A resource name: a DNS-1123 subdomain (lower case, digits, '-' and '.'; 253 at most). */
  static String resourceName(String what, String name) {
    if (name == null || name.length() > 253 || !SUBDOMAIN.matcher(name).matches()) {
      throw CliException.usage(
          what
              + " '"
              + name
              + "' is not a valid name: lower-case letters, digits, '-' and '.', starting and"
              + " ending with a letter or digit");
    }
    return name;
  }

  /** A namespace name (a DNS-1123 label, 63 at most), or {@code *} when {@code star}. */
  static String namespace(String option, String name, boolean star) {
    if (star && name.equals("*")) {
      return name;
    }
    if (name.length() > 63 || !LABEL.matcher(name).matches()) {
      throw CliException.usage(option + " " + name + ": not a namespace name");
    }
    return name;
  }

  static List<String> namespaces(String option, List<String> names) {
    if (names == null) {
      return null;
    }
    return names.stream().map(n -> namespace(option, n.strip(), true)).toList();
  }

  /** A label selector in kubectl's syntax ({@link LabelSelectors#parse}), or null for none. */
  static LabelSelector selector(String option, String text) {
    if (text == null) {
      return null;
    }
    try {
      return LabelSelectors.parse(text);
    } catch (IllegalArgumentException e) {
      throw CliException.usage(option + " " + text + ": " + e.getMessage());
    }
  }

  /** Label selectors separated by {@code or}, as Velero's {@code --or-selector}; null for none. */
  static List<LabelSelector> selectors(String option, String text) {
    if (text == null) {
      return null;
    }
    try {
      return LabelSelectors.parseAlternatives(text);
    } catch (IllegalArgumentException e) {
      throw CliException.usage(option + " " + text + ": " + e.getMessage());
    }
  }

  /** {@code old:new,old2:new2}, each a namespace name, no namespace mapped twice. */
  static Map<String, String> mappings(String option, List<String> pairs) {
    if (pairs == null) {
      return null;
    }
    Map<String, String> map = new LinkedHashMap<>();
    for (String pair : pairs) {
      String[] sides = pair.strip().split(":", -1);
      if (sides.length != 2 || sides[0].isBlank() || sides[1].isBlank()) {
        throw CliException.usage(
            option
                + " "
                + pair
                + ": write OLD:NEW pairs separated by commas, such as prod:staging");
      }
      String from = namespace(option, sides[0].strip(), false);
      String to = namespace(option, sides[1].strip(), false);
      if (map.put(from, to) != null) {
        throw CliException.usage(option + ": namespace " + from + " is mapped twice");
      }
    }
    return map;
  }

  /** {@code a, b}, or {@code empty} when there are none. */
  static String list(List<String> items, String empty) {
    return items == null || items.isEmpty() ? empty : String.join(", ", items);
  }

  /** {@code k=v,k2=v2}, or {@code <none>}. */
  static String selector(LabelSelector selector) {
    if (selector == null) {
      return "<none>";
    }
    StringBuilder s = new StringBuilder();
    if (selector.getMatchLabels() != null) {
      selector
          .getMatchLabels()
          .forEach((k, v) -> s.append(s.isEmpty() ? "" : ",").append(k).append('=').append(v));
    }
    if (selector.getMatchExpressions() != null) {
      selector
          .getMatchExpressions()
          .forEach(
              e ->
                  s.append(s.isEmpty() ? "" : ",")
                      .append(e.getKey())
                      .append(' ')
                      .append(e.getOperator())
                      .append(
                          e.getValues() == null
                              ? ""
                              : " (" + String.join(",", e.getValues()) + ")"));
    }
    return s.isEmpty() ? "<none>" : s.toString();
  }
}
