package dev.stele.operator.restore;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.stele.k8s.api.JsonPaths;
import dev.stele.k8s.api.LabelSelectors;
import io.fabric8.kubernetes.api.model.LabelSelector;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Velero's resource modifier format (YAML or JSON), read and checked: {@code version: v1} and
 * {@code resourceModifierRules}, each with {@code conditions} ({@code groupResource}, a glob such
 * as {@code deployments.apps} or {@code *.apps}; {@code resourceNameRegex}; {@code namespaces};
 * {@code labelSelector}; {@code matches}) and one kind of patch: {@code patches} (RFC 6902, {@code
 * value} read as Velero reads it) or {@code mergePatches} (RFC 7386, {@code patchData} in YAML or
 * JSON). {@code strategicPatches} are refused: a strategic merge needs each type's merge keys
 * (containers by name, ports by port…), which only Kubernetes' Go types carry.
 *
 * <p>Unknown fields are refused, as Velero reads the rules strictly: a typo must not silently make
 * a rule apply to everything.
 */
final class ModifierRules {
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<String> OPERATIONS =
      List.of("add", "remove", "replace", "copy", "move", "test");

  private ModifierRules() {}

  record Document(String version, List<RuleSpec> resourceModifierRules) {}

  record RuleSpec(
      ConditionsSpec conditions,
      List<PatchSpec> patches,
      List<MergePatchSpec> mergePatches,
      List<MergePatchSpec> strategicPatches) {}

  record ConditionsSpec(
      String groupResource,
      String resourceNameRegex,
      List<String> namespaces,
      LabelSelector labelSelector,
      List<MatchSpec> matches) {}

  record MatchSpec(String path, JsonNode value) {}

  record PatchSpec(String operation, String path, String from, JsonNode value) {}

  record MergePatchSpec(String patchData) {}

  /**
   * A checked rule.
   *
   * @param groupResource the types it applies to ({@code deployments.apps}), from the glob
   * @param name the names it applies to (found anywhere in the name, as Go's MatchString), or null
   * @param namespaces the namespaces (as backed up) it applies to; empty: all
   * @param labels the labels it applies to, or null
   * @param matches an RFC 6902 patch of {@code test} operations that must all pass, or null
   * @param jsonPatch the RFC 6902 patch to apply, or null
   * @param mergePatches the RFC 7386 patches to apply in order, when {@code jsonPatch} is null
   */
  record Rule(
      Pattern groupResource,
      Pattern name,
      List<String> namespaces,
      LabelSelector labels,
      ArrayNode matches,
      ArrayNode jsonPatch,
      List<JsonNode> mergePatches) {}

  /**
   * The rules {@code text} holds.
   *
   * @throws IllegalArgumentException one line saying what is wrong and where
   */
  static List<Rule> parse(String text) {
    Document doc;
    try {
      doc = YAML.readValue(text, Document.class);
    } catch (UnrecognizedPropertyException e) {
      throw new IllegalArgumentException(where(e) + "unknown field " + e.getPropertyName());
    } catch (JsonMappingException e) {
      throw new IllegalArgumentException(where(e) + firstLine(e));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not YAML or JSON: " + firstLine(e));
    }
    if (doc == null || !"v1".equalsIgnoreCase(doc.version())) {
      throw new IllegalArgumentException(
          "version must be v1, not " + (doc == null ? "missing" : doc.version()));
    }
    if (doc.resourceModifierRules() == null || doc.resourceModifierRules().isEmpty()) {
      throw new IllegalArgumentException("resourceModifierRules is empty");
    }
    List<Rule> rules = new ArrayList<>();
    for (int i = 0; i < doc.resourceModifierRules().size(); i++) {
      String at = "resourceModifierRules[" + i + "]";
      rules.add(rule(at, doc.resourceModifierRules().get(i)));
    }
    return List.copyOf(rules);
  }

  private static Rule rule(String at, RuleSpec r) {
    ConditionsSpec c = r.conditions();
    if (c == null || c.groupResource() == null || c.groupResource().isBlank()) {
      throw new IllegalArgumentException(at + ".conditions.groupResource is required");
    }
    Pattern name = null;
    if (c.resourceNameRegex() != null && !c.resourceNameRegex().isEmpty()) {
      try {
        name = Pattern.compile(c.resourceNameRegex());
      } catch (PatternSyntaxException e) {
        throw new IllegalArgumentException(
            at + ".conditions.resourceNameRegex: " + e.getDescription());
      }
    }
    String labels = LabelSelectors.problem(at + ".conditions.labelSelector", c.labelSelector());
    if (labels != null) {
      throw new IllegalArgumentException(labels);
    }
    ArrayNode matches = null;
    if (c.matches() != null && !c.matches().isEmpty()) {
      matches = JsonNodeFactory.instance.arrayNode();
      for (int i = 0; i < c.matches().size(); i++) {
        MatchSpec m = c.matches().get(i);
        String path = pointer(at + ".conditions.matches[" + i + "].path", m.path());
        matches.add(
            operation(at + ".conditions.matches[" + i + "]", "test", path, null, m.value()));
      }
    }
    int kinds =
        (given(r.patches()) ? 1 : 0)
            + (given(r.mergePatches()) ? 1 : 0)
            + (given(r.strategicPatches()) ? 1 : 0);
    if (kinds != 1) {
      throw new IllegalArgumentException(
          at + ": give exactly one of patches, mergePatches and strategicPatches");
    }
    if (given(r.strategicPatches())) {
      throw new IllegalArgumentException(
          at
              + ".strategicPatches are not supported (they need each type's merge keys): use"
              + " mergePatches or patches");
    }
    ArrayNode jsonPatch = null;
    List<JsonNode> merges = new ArrayList<>();
    if (given(r.patches())) {
      jsonPatch = JsonNodeFactory.instance.arrayNode();
      for (int i = 0; i < r.patches().size(); i++) {
        jsonPatch.add(patch(at + ".patches[" + i + "]", r.patches().get(i)));
      }
    } else {
      for (int i = 0; i < r.mergePatches().size(); i++) {
        merges.add(mergePatch(at + ".mergePatches[" + i + "].patchData", r.mergePatches().get(i)));
      }
    }
    return new Rule(
        glob(at, c.groupResource().strip()),
        name,
        c.namespaces() == null ? List.of() : List.copyOf(c.namespaces()),
        c.labelSelector(),
        matches,
        jsonPatch,
        List.copyOf(merges));
  }

  private static ObjectNode patch(String at, PatchSpec p) {
    String op = p.operation() == null ? "" : p.operation().toLowerCase(Locale.ROOT);
    if (!OPERATIONS.contains(op)) {
      throw new IllegalArgumentException(
          at
              + ".operation "
              + (p.operation() == null ? "is missing" : p.operation())
              + ": use one of "
              + String.join(", ", OPERATIONS));
    }
    String path = pointer(at + ".path", p.path());
    String from = null;
    if (op.equals("copy") || op.equals("move")) {
      from = pointer(at + ".from", p.from());
    }
    if ((op.equals("add") || op.equals("replace") || op.equals("test")) && p.value() == null) {
      throw new IllegalArgumentException(at + ": " + op + " needs a value");
    }
    return operation(at, op, path, from, p.value());
  }

  private static ObjectNode operation(
      String at, String op, String path, String from, JsonNode value) {
    ObjectNode o = JsonNodeFactory.instance.objectNode().put("op", op).put("path", path);
    if (from != null) {
      o.put("from", from);
    }
    if (!op.equals("remove") && !op.equals("copy") && !op.equals("move")) {
      o.set("value", value(at, value));
    }
    return o;
  }

  /**
   * A patch's {@code value} as Velero reads it: the rules hold values as strings, so "3" is the
   * number 3, "true" a boolean, "null" null, a string starting with a brace or a bracket JSON; a
   * string in quotes is the string inside them; anything else is the string itself. A value written
   * in YAML as a number, boolean or map is taken as it is.
   */
  static JsonNode value(String at, JsonNode value) {
    if (!(value instanceof TextNode t)) {
      return value == null ? TextNode.valueOf("") : value;
    }
    String s = t.asText();
    if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) {
      return TextNode.valueOf(s.substring(1, s.length() - 1));
    }
    if (s.equals("null")) {
      return JsonNodeFactory.instance.nullNode();
    }
    if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
      return JsonNodeFactory.instance.booleanNode(s.equalsIgnoreCase("true"));
    }
    if (s.startsWith("{") || s.startsWith("[") || s.matches("-?[0-9.][0-9.eE+-]*")) {
      try {
        return JSON.readTree(s);
      } catch (JsonProcessingException e) {
        if (s.startsWith("{") || s.startsWith("[")) {
          throw new IllegalArgumentException(at + ".value " + s + " is not JSON: " + firstLine(e));
        }
      }
    }
    return t;
  }

  private static JsonNode mergePatch(String at, MergePatchSpec m) {
    if (m.patchData() == null || m.patchData().isBlank()) {
      throw new IllegalArgumentException(at + " is empty");
    }
    try {
      JsonNode patch = YAML.readTree(m.patchData());
      if (!patch.isObject()) {
        throw new IllegalArgumentException(at + " must be an object");
      }
      return patch;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(at + ": not YAML or JSON: " + firstLine(e));
    }
  }

  private static String pointer(String at, String path) {
    if (path == null || path.isEmpty()) {
      throw new IllegalArgumentException(at + " is required");
    }
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(at + " " + path + ": a JSON pointer starts with /");
    }
    return path;
  }

  /**
   * A {@code groupResource} glob as Velero reads it (gobwas/glob with {@code .} as separator):
   * {@code *} within one dot-separated part, {@code **} across parts, {@code ?} one character,
   * {@code {a,b}} either.
   */
  static Pattern glob(String at, String glob) {
    StringBuilder re = new StringBuilder();
    boolean inBraces = false;
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      if (c == '*' && glob.startsWith("**", i)) {
        re.append(".*");
        i++;
      } else if (c == '*') {
        re.append("[^.]*");
      } else if (c == '?') {
        re.append("[^.]");
      } else if (c == '{' && !inBraces) {
        re.append("(?:");
        inBraces = true;
      } else if (c == '}' && inBraces) {
        re.append(')');
        inBraces = false;
      } else if (c == ',' && inBraces) {
        re.append('|');
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    if (inBraces) {
      throw new IllegalArgumentException(
          at + ".conditions.groupResource " + glob + ": a { is not closed");
    }
    return Pattern.compile(re.toString());
  }

  private static boolean given(List<?> list) {
    return list != null && !list.isEmpty();
  }

  /** The parser's message in one line, with where it stopped. */
  private static String firstLine(JsonProcessingException e) {
    String line = e.getOriginalMessage().lines().findFirst().orElse("").strip();
    var at = e.getLocation();
    return at == null || at.getLineNr() < 0
        ? line
        : line + " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
  }

  /** {@code resourceModifierRules[0].conditions: } from where Jackson stopped. */
  private static String where(JsonMappingException e) {
    String at = JsonPaths.of(e);
    return at.isEmpty() ? "" : at + ": ";
  }
}
