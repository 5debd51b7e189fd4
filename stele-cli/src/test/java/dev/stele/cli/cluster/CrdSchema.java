package dev.stele.cli.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks a custom resource against its CRD's structural schema the way the API server's validation
 * does, for what Stele's CRDs use: types, properties (unknown ones refused unless preserved),
 * required, pattern, enum, maps and arrays. Defaults and CEL rules are not evaluated.
 */
final class CrdSchema {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private CrdSchema() {}

  /**
   * What is wrong with {@code resource} against the CRD among {@code crds} for its kind; a resource
   * without one is itself an error.
   */
  static List<String> problems(HasMetadata resource, List<CustomResourceDefinition> crds) {
    String group = resource.getApiVersion().split("/", -1)[0];
    String version = resource.getApiVersion().split("/", -1)[1];
    for (CustomResourceDefinition crd : crds) {
      if (crd.getSpec().getGroup().equals(group)
          && crd.getSpec().getNames().getKind().equals(resource.getKind())) {
        for (var v : crd.getSpec().getVersions()) {
          if (v.getName().equals(version)) {
            List<String> problems = new ArrayList<>();
            JsonNode value = JSON.valueToTree(SERIALIZATION.convertValue(resource, Map.class));
            ((com.fasterxml.jackson.databind.node.ObjectNode) value).remove("metadata");
            check(v.getSchema().getOpenAPIV3Schema(), value, resource.getKind(), problems);
            return problems;
          }
        }
      }
    }
    return List.of("no CRD for " + resource.getApiVersion() + " " + resource.getKind());
  }

  private static void check(JSONSchemaProps s, JsonNode v, String at, List<String> problems) {
    if (s.getType() != null && !typeMatches(s.getType(), v)) {
      problems.add(at + ": " + v.getNodeType() + " where the schema has " + s.getType());
      return;
    }
    if (s.getEnum() != null
        && !s.getEnum().isEmpty()
        && s.getEnum().stream().noneMatch(e -> e.asText().equals(v.asText()))) {
      problems.add(at + ": " + v + " is none of " + s.getEnum());
    }
    if (s.getPattern() != null
        && v.isTextual()
        && !Pattern.compile(s.getPattern()).matcher(v.asText()).find()) {
      problems.add(at + ": " + v + " does not match " + s.getPattern());
    }
    if (v.isObject()) {
      for (String r : s.getRequired()) {
        if (!v.has(r)) {
          problems.add(at + ": " + r + " is required");
        }
      }
      for (var f : v.properties()) {
        String where = at + "." + f.getKey();
        if (at.indexOf('.') < 0 && (f.getKey().equals("apiVersion") || f.getKey().equals("kind"))) {
          continue;
        }
        JSONSchemaProps p = s.getProperties().get(f.getKey());
        if (p != null) {
          check(p, f.getValue(), where, problems);
        } else if (s.getAdditionalProperties() != null
            && s.getAdditionalProperties().getSchema() != null) {
          check(s.getAdditionalProperties().getSchema(), f.getValue(), where, problems);
        } else if (!Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields())) {
          problems.add(where + ": unknown field");
        }
      }
    }
    if (v.isArray() && s.getItems() != null && s.getItems().getSchema() != null) {
      for (int i = 0; i < v.size(); i++) {
        check(s.getItems().getSchema(), v.get(i), at + "[" + i + "]", problems);
      }
    }
  }

  private static boolean typeMatches(String type, JsonNode v) {
    return switch (type) {
      case "object" -> v.isObject();
      case "array" -> v.isArray();
      case "string" -> v.isTextual();
      case "integer" -> v.isIntegralNumber();
      case "number" -> v.isNumber();
      case "boolean" -> v.isBoolean();
      default -> true;
    };
  }
}
