package dev.stele.k8s.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code labelSelector} query parameter as a real API server evaluates it: comma-separated
 * requirements, all of which must hold — {@code k=v}, {@code k==v}, {@code k!=v}, {@code k in
 * (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}; {@code !=} and {@code notin} hold for an
 * object without the label. fabric8's CRUD mock reads only the equality and existence forms and
 * lets {@code in}/{@code notin} select everything.
 *
 * <p>Written apart from the operator's own selector code on purpose: the test server stands in for
 * Kubernetes, so it must not share the code it checks.
 */
final class LabelQuery {
  private static final Pattern SET =
      Pattern.compile("^([^\\s!=]+)\\s+(in|notin)\\s*\\(([^)]*)\\)$");
  private static final Pattern COMPARE =
      Pattern.compile("^([^\\s!=]+)\\s*(==|=|!=)\\s*([^\\s,]*)$");
  private static final Pattern KEY = Pattern.compile("^(!?)\\s*([^\\s!=()]+)$");

  private final Predicate<Map<String, String>> test;

  private LabelQuery(Predicate<Map<String, String>> test) {
    this.test = test;
  }

  boolean selects(Map<String, String> labels) {
    return test.test(labels);
  }

  /**
   * @throws IllegalArgumentException for a requirement a real server would refuse to parse
   */
  static LabelQuery parse(String query) {
    Predicate<Map<String, String>> all = labels -> true;
    for (String requirement : split(query)) {
      all = all.and(requirement(requirement.strip()));
    }
    return new LabelQuery(all);
  }

  private static Predicate<Map<String, String>> requirement(String r) {
    Matcher m = SET.matcher(r);
    if (m.matches()) {
      String key = m.group(1);
      Set<String> values = Set.copyOf(List.of(m.group(3).replace(" ", "").split(",")));
      boolean in = m.group(2).equals("in");
      return labels -> labels.containsKey(key) ? values.contains(labels.get(key)) == in : !in;
    }
    m = COMPARE.matcher(r);
    if (m.matches()) {
      String key = m.group(1);
      String value = m.group(3);
      boolean equal = !m.group(2).equals("!=");
      return labels -> value.equals(labels.get(key)) == equal;
    }
    m = KEY.matcher(r);
    if (m.matches()) {
      String key = m.group(2);
      boolean exists = m.group(1).isEmpty();
      return labels -> labels.containsKey(key) == exists;
    }
    throw new IllegalArgumentException("unable to parse requirement: " + r);
  }

  /** Splits at the commas that are not inside a value set's parentheses. */
  private static List<String> split(String query) {
    List<String> out = new ArrayList<>();
    int open = 0;
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < query.length(); i++) {
      char c = query.charAt(i);
      open += c == '(' ? 1 : c == ')' ? -1 : 0;
      if (c == ',' && open == 0) {
        out.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    out.add(current.toString());
    return out;
  }
}
