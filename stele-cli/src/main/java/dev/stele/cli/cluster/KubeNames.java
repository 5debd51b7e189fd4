package dev.stele.cli.cluster;

import dev.stele.cli.CliException;
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
  private static final Pattern LABEL_NAME =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");

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

  /**
   * {@code key=value,key2=value2} as matchLabels. Set-based forms ({@code key!=v}, {@code key in
   * (…)}, {@code !key}) are refused: the operator selects with matchLabels only.
   */
  static LabelSelector selector(String option, String text) {
    if (text == null) {
      return null;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    for (String part : text.split(",", -1)) {
      String p = part.strip();
      int eq = p.indexOf('=');
      String key = eq < 0 ? p : p.substring(0, eq).strip();
      String value = eq < 0 ? null : p.substring(p.startsWith("==", eq) ? eq + 2 : eq + 1).strip();
      if (value == null || key.endsWith("!") || key.isEmpty()) {
        throw CliException.usage(
            option
                + " "
                + text
                + ": write key=value pairs separated by commas (only equality is supported)");
      }
      if (!labelKey(key) || value.length() > 63 || !LABEL_NAME.matcher(value).matches()) {
        throw CliException.usage(option + " " + text + ": '" + p + "' is not a valid label");
      }
      labels.put(key, value);
    }
    LabelSelector selector = new LabelSelector();
    selector.setMatchLabels(labels);
    return selector;
  }

  private static boolean labelKey(String key) {
    int slash = key.indexOf('/');
    String name = slash < 0 ? key : key.substring(slash + 1);
    if (slash >= 0) {
      String prefix = key.substring(0, slash);
      if (prefix.length() > 253 || !SUBDOMAIN.matcher(prefix).matches()) {
        return false;
      }
    }
    return !name.isEmpty() && name.length() <= 63 && LABEL_NAME.matcher(name).matches();
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
