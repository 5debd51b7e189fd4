package dev.stele.k8s.api;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Label selectors as a Kubernetes API server reads them, for the objects a Backup, a Restore or a
 * resource modifier selects: {@code matchLabels} and {@code matchExpressions} ({@code In}, {@code
 * NotIn}, {@code Exists}, {@code DoesNotExist}), all of which must hold; and Velero's {@code
 * orLabelSelectors}, of which one must.
 *
 * <p>The semantics are the server's: {@code NotIn} and {@code DoesNotExist} match an object without
 * the label; a selector with no requirement matches everything. The text form is kubectl's ({@code
 * app in (a,b),tier!=cache,!legacy}), and Velero's {@code or} between selectors.
 */
public final class LabelSelectors {
  private static final Pattern SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern NAME =
      Pattern.compile("([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?");
  private static final Pattern SET =
      Pattern.compile("^(\\S+)\\s+(in|notin)\\s*\\((.*)\\)$", Pattern.DOTALL);
  private static final Pattern OR = Pattern.compile("\\s+or\\s+");
  private static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

  private LabelSelectors() {}

  /**
   * The selectors an object must match one of: {@code or} when it has any, else {@code selector}
   * alone; empty when neither selects (everything is selected).
   */
  public static List<LabelSelector> alternatives(
      @Nullable LabelSelector selector, @Nullable List<LabelSelector> or) {
    if (or != null && !or.isEmpty()) {
      return List.copyOf(or);
    }
    return selector == null ? List.of() : List.of(selector);
  }

  /** Whether {@code labels} match one of {@code alternatives} (or there are none). */
  public static boolean matchesAny(List<LabelSelector> alternatives, Map<String, String> labels) {
    return alternatives.isEmpty() || alternatives.stream().anyMatch(s -> matches(s, labels));
  }

  /** Whether {@code labels} meet every requirement of {@code selector} (null: no requirement). */
  public static boolean matches(@Nullable LabelSelector selector, Map<String, String> labels) {
    if (selector == null) {
      return true;
    }
    if (selector.getMatchLabels() != null) {
      for (var e : selector.getMatchLabels().entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
    }
    if (selector.getMatchExpressions() != null) {
      for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
        String value = labels.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        boolean holds =
            switch (r.getOperator()) {
              case "In" -> value != null && values.contains(value);
              case "NotIn" -> value == null || !values.contains(value);
              case "Exists" -> value != null;
              case "DoesNotExist" -> value == null;
              default -> throw new IllegalArgumentException("unknown operator " + r.getOperator());
            };
        if (!holds) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * What is wrong with a spec's {@code labelSelector} and {@code orLabelSelectors}, in one line
   * naming the field, or null: both set (Velero refuses that too), an unknown operator, values
   * missing for {@code In}/{@code NotIn} or given for {@code Exists}/{@code DoesNotExist}.
   */
  public static @Nullable String problem(
      @Nullable LabelSelector selector, @Nullable List<LabelSelector> or) {
    boolean hasOr = or != null && !or.isEmpty();
    if (selector != null && hasOr) {
      return "spec.labelSelector and spec.orLabelSelectors cannot both be set: use one";
    }
    if (selector != null) {
      return problem("spec.labelSelector", selector);
    }
    for (int i = 0; hasOr && i < or.size(); i++) {
      String p = problem("spec.orLabelSelectors[" + i + "]", or.get(i));
      if (p != null) {
        return p;
      }
    }
    return null;
  }

  /** What is wrong with one selector, named {@code field} in the message, or null. */
  public static @Nullable String problem(String field, @Nullable LabelSelector selector) {
    if (selector == null || selector.getMatchExpressions() == null) {
      return null;
    }
    for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
      String at = field + ".matchExpressions key " + r.getKey();
      boolean none = r.getValues() == null || r.getValues().isEmpty();
      if (r.getKey() == null || r.getKey().isEmpty()) {
        return field + ".matchExpressions: every expression needs a key";
      }
      if (!OPERATORS.contains(r.getOperator())) {
        return at
            + ": operator "
            + r.getOperator()
            + " is not one of "
            + String.join(", ", OPERATORS);
      }
      boolean takesValues = r.getOperator().endsWith("In");
      if (takesValues && none) {
        return at + ": " + r.getOperator() + " needs at least one value";
      }
      if (!takesValues && !none) {
        return at + ": " + r.getOperator() + " takes no values";
      }
    }
    return null;
  }

  /**
   * A selector in kubectl's syntax: comma-separated {@code key=value} ({@code ==} too), {@code
   * key!=value}, {@code key in (v1,v2)}, {@code key notin (v1,v2)}, {@code key} and {@code !key}.
   *
   * @throws IllegalArgumentException naming the part that is not one of these, or not a valid label
   *     key or value
   */
  public static LabelSelector parse(String text) {
    Map<String, String> labels = new LinkedHashMap<>();
    List<LabelSelectorRequirement> expressions = new ArrayList<>();
    for (String term : terms(text)) {
      Matcher set = SET.matcher(term);
      if (set.matches()) {
        List<String> values = new ArrayList<>();
        for (String v : set.group(3).split(",", -1)) {
          values.add(value(term, v.strip()));
        }
        expressions.add(
            requirement(
                key(term, set.group(1)), set.group(2).equals("in") ? "In" : "NotIn", values));
      } else if (term.startsWith("!") && !term.contains("=")) {
        expressions.add(requirement(key(term, term.substring(1).strip()), "DoesNotExist", null));
      } else if (term.contains("!=")) {
        int at = term.indexOf("!=");
        expressions.add(
            requirement(
                key(term, term.substring(0, at).strip()),
                "NotIn",
                List.of(value(term, term.substring(at + 2).strip()))));
      } else if (term.contains("=")) {
        int at = term.indexOf('=');
        int skip = term.startsWith("==", at) ? 2 : 1;
        String key = key(term, term.substring(0, at).strip());
        String value = value(term, term.substring(at + skip).strip());
        String before = labels.put(key, value);
        if (before != null && !before.equals(value)) {
          throw new IllegalArgumentException(
              "'" + key + "' must equal both " + before + " and " + value + ": nothing can match");
        }
      } else {
        expressions.add(requirement(key(term, term), "Exists", null));
      }
    }
    LabelSelector selector = new LabelSelector();
    if (!labels.isEmpty()) {
      selector.setMatchLabels(labels);
    }
    if (!expressions.isEmpty()) {
      selector.setMatchExpressions(expressions);
    }
    return selector;
  }

  /**
   * Selectors separated by {@code or}, as Velero's {@code --or-selector}: {@code app=a or app=b}.
   *
   * @throws IllegalArgumentException as {@link #parse}
   */
  public static List<LabelSelector> parseAlternatives(String text) {
    List<LabelSelector> out = new ArrayList<>();
    for (String part : OR.split(text.strip(), -1)) {
      out.add(parse(part));
    }
    return out;
  }

  /** The terms of a selector: split at commas outside parentheses, each stripped, none empty. */
  private static List<String> terms(String text) {
    List<String> terms = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : ',';
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        String term = text.substring(start, i).strip();
        if (term.isEmpty()) {
          throw new IllegalArgumentException("an empty requirement in '" + text + "'");
        }
        terms.add(term);
        start = i + 1;
      }
      if (depth < 0 || (i == text.length() && depth != 0)) {
        throw new IllegalArgumentException("unbalanced parentheses in '" + text + "'");
      }
    }
    return terms;
  }

  private static LabelSelectorRequirement requirement(
      String key, String operator, @Nullable List<String> values) {
    LabelSelectorRequirement r = new LabelSelectorRequirement();
    r.setKey(key);
    r.setOperator(operator);
    r.setValues(values == null ? new ArrayList<>() : values);
    return r;
  }

  /** A label key: an optional DNS subdomain prefix and '/', then a name of 63 at most. */
  private static String key(String term, String key) {
    int slash = key.indexOf('/');
    String name = slash < 0 ? key : key.substring(slash + 1);
    String prefix = slash < 0 ? "" : key.substring(0, slash);
    boolean ok =
        !name.isEmpty()
            && name.length() <= 63
            && NAME.matcher(name).matches()
            && (slash < 0 || (prefix.length() <= 253 && SUBDOMAIN.matcher(prefix).matches()));
    if (!ok) {
      throw new IllegalArgumentException("'" + term + "': '" + key + "' is not a valid label key");
    }
    return key;
  }

  private static String value(String term, String value) {
    if (value.length() > 63 || !NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "'" + term + "': '" + value + "' is not a valid label value");
    }
    return value;
  }
}
