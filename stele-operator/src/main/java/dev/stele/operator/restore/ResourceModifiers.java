package dev.stele.operator.restore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stele.k8s.api.LabelSelectors;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.TypedLocalObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import io.fabric8.zjsonpatch.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A Restore's resource modifiers (Velero's {@code --resource-modifier-configmap}): the rules of the
 * ConfigMap {@code spec.resourceModifier} names, in the Restore's namespace, applied to each
 * selected object after it is stripped and remapped and before it is created or, under {@code
 * existingResourcePolicy: update}, put in place of the existing one.
 *
 * <p>A rule applies to an object when all its conditions hold, each evaluated on the object as it
 * was before any rule ran (as Velero does): its type matches {@code groupResource}, its name {@code
 * resourceNameRegex}, its namespace <em>as backed up</em> one of {@code namespaces} (cluster-scoped
 * objects are not filtered by namespace), its labels {@code labelSelector}, and every {@code
 * matches} test passes. Rules apply in order, each to the result of the one before. In {@code
 * patches}, a failing {@code test} operation means the rule does not apply to that object; any
 * other failure (a path that is not there) fails the object, which is then not restored.
 */
final class ResourceModifiers {
  /** No rules: every object is restored as backed up. */
  static final ResourceModifiers NONE = new ResourceModifiers("", List.of());

  private final String source;
  private final List<ModifierRules.Rule> rules;

  private ResourceModifiers(String source, List<ModifierRules.Rule> rules) {
    this.source = source;
    this.rules = rules;
  }

  /**
   * The rules {@code ref} names in namespace {@code ns}, or {@link #NONE} for no reference.
   *
   * @throws IllegalArgumentException one line, naming the field: a reference to anything but a
   *     ConfigMap, a ConfigMap that is missing or holds other than one key, an invalid rule
   */
  static ResourceModifiers load(KubernetesClient client, String ns, TypedLocalObjectReference ref) {
    if (ref == null) {
      return NONE;
    }
    String field = "spec.resourceModifier";
    if (ref.getKind() == null || !ref.getKind().equalsIgnoreCase("ConfigMap")) {
      throw new IllegalArgumentException(
          field
              + ".kind must be ConfigMap, not "
              + (ref.getKind() == null ? "empty" : ref.getKind()));
    }
    if (ref.getName() == null || ref.getName().isBlank()) {
      throw new IllegalArgumentException(field + ".name is required");
    }
    String which = "ConfigMap " + ref.getName();
    ConfigMap cm = client.configMaps().inNamespace(ns).withName(ref.getName()).get();
    if (cm == null) {
      throw new IllegalArgumentException(
          field + ": " + which + " does not exist in namespace " + ns);
    }
    Map<String, String> data = cm.getData() == null ? Map.of() : cm.getData();
    if (data.size() != 1) {
      throw new IllegalArgumentException(
          field
              + ": "
              + which
              + " must hold exactly one key (the rules, YAML or JSON), not "
              + data.size());
    }
    var entry = data.entrySet().iterator().next();
    try {
      return of(which + " key " + entry.getKey(), entry.getValue());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
    }
  }

  /**
   * The rules {@code text} holds, read from {@code source} (named in messages).
   *
   * @throws IllegalArgumentException starting with {@code source}, when a rule is invalid
   */
  static ResourceModifiers of(String source, String text) {
    try {
      return new ResourceModifiers(source, ModifierRules.parse(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  boolean isEmpty() {
    return rules.isEmpty();
  }

  /**
   * Applies the rules to {@code doc}, the object {@code o} as it is about to be created.
   *
   * @return the modified object, and the rules that changed it (by index), for the log
   * @throws IllegalArgumentException naming the rule when one cannot be applied
   */
  Modified apply(BackedUpObject o, ObjectNode doc) {
    ObjectNode before = doc.deepCopy();
    ObjectNode current = doc;
    List<Integer> applied = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      ModifierRules.Rule rule = rules.get(i);
      if (!selects(rule, o, before)) {
        continue;
      }
      try {
        ObjectNode next = patch(rule, current);
        if (next != null) {
          current = next;
          applied.add(i);
        }
      } catch (JsonPatchException | IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "resource modifier rule " + i + " of " + source + ": " + e.getMessage(), e);
      }
    }
    return new Modified(current, List.copyOf(applied));
  }

  /**
   * @param doc the object to create
   * @param rules the indices of the rules that changed it
   */
  record Modified(ObjectNode doc, List<Integer> rules) {}

  private static boolean selects(ModifierRules.Rule rule, BackedUpObject o, ObjectNode before) {
    if (!rule.groupResource().matcher(o.qualifiedResource()).matches()) {
      return false;
    }
    if (o.namespaced()
        && !rule.namespaces().isEmpty()
        && !rule.namespaces().contains("*")
        && !rule.namespaces().contains(o.namespace())) {
      return false;
    }
    String name = before.path("metadata").path("name").asText();
    if (rule.name() != null && !rule.name().matcher(name).find()) {
      return false;
    }
    if (rule.labels() != null && !LabelSelectors.matches(rule.labels(), labels(before))) {
      return false;
    }
    return rule.matches() == null || testsPass(rule.matches(), before);
  }

  /** The patched object, or null when a {@code test} operation of the patch failed. */
  private static ObjectNode patch(ModifierRules.Rule rule, ObjectNode doc) {
    if (rule.jsonPatch() != null) {
      try {
        return (ObjectNode) JsonPatch.apply(rule.jsonPatch(), doc);
      } catch (JsonPatchException e) {
        if (e.getOperation() == Operation.TEST) {
          return null;
        }
        throw e;
      }
    }
    JsonNode out = doc;
    for (JsonNode merge : rule.mergePatches()) {
      out = mergeInto(out, merge);
    }
    return (ObjectNode) out;
  }

  /** Whether every test operation of {@code tests} passes on {@code doc}. */
  private static boolean testsPass(JsonNode tests, ObjectNode doc) {
    try {
      JsonPatch.apply(tests, doc);
      return true;
    } catch (JsonPatchException e) {
      return false;
    }
  }

  /** RFC 7386: {@code patch} merged into {@code target}; null removes, objects merge. */
  static JsonNode mergeInto(JsonNode target, JsonNode patch) {
    if (!(patch instanceof ObjectNode p)) {
      return patch;
    }
    ObjectNode out = target instanceof ObjectNode t ? t.deepCopy() : p.objectNode();
    for (Map.Entry<String, JsonNode> f : p.properties()) {
      if (f.getValue().isNull()) {
        out.remove(f.getKey());
      } else {
        out.set(f.getKey(), mergeInto(out.get(f.getKey()), f.getValue()));
      }
    }
    return out;
  }

  private static Map<String, String> labels(ObjectNode doc) {
    Map<String, String> labels = new HashMap<>();
    doc.path("metadata")
        .path("labels")
        .properties()
        .forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
    return labels;
  }
}
