package dev.stele.k8s.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelSelectorsTest {
  static final Map<String, String> WEB = Map.of("app", "web", "tier", "front");
  static final Map<String, String> DB = Map.of("app", "db");
  static final Map<String, String> NONE = Map.of();

  static boolean selects(String text, Map<String, String> labels) {
    return LabelSelectors.matches(LabelSelectors.parse(text), labels);
  }

  @Test
  void setBasedRequirementsHaveTheApiServersSemantics() {
    assertThat(selects("app in (web,api)", WEB)).isTrue();
    assertThat(selects("app in (web,api)", DB)).isFalse();
    assertThat(selects("app in (web,api)", NONE)).isFalse();
    // NotIn and != match an object without the label, as on a real server.
    assertThat(selects("app notin (db)", WEB)).isTrue();
    assertThat(selects("app notin (db)", DB)).isFalse();
    assertThat(selects("app notin (db)", NONE)).isTrue();
    assertThat(selects("tier!=back", DB)).isTrue();
    assertThat(selects("tier!=front", WEB)).isFalse();
    assertThat(selects("tier", WEB)).isTrue();
    assertThat(selects("tier", DB)).isFalse();
    assertThat(selects("!tier", DB)).isTrue();
    assertThat(selects("!tier", WEB)).isFalse();
    // All requirements must hold.
    assertThat(selects("app in (web,db),tier!=front", WEB)).isFalse();
    assertThat(selects("app in (web,db),tier!=front", DB)).isTrue();
    assertThat(selects("app==web,tier=front", WEB)).isTrue();
    assertThat(LabelSelectors.matches(new LabelSelector(), NONE)).isTrue();
  }

  @Test
  void parsingGivesMatchLabelsForEqualityAndExpressionsForTheRest() {
    LabelSelector s = LabelSelectors.parse(" app = web , tier notin (a, b),!old,example.com/x");
    assertThat(s.getMatchLabels()).containsExactly(Map.entry("app", "web"));
    assertThat(s.getMatchExpressions())
        .extracting(r -> r.getKey() + " " + r.getOperator() + " " + r.getValues())
        .containsExactly("tier NotIn [a, b]", "old DoesNotExist []", "example.com/x Exists []");
  }

  @Test
  void malformedSelectorsAreRefusedNamingThePart() {
    assertThatThrownBy(() -> LabelSelectors.parse("app in (a,b"))
        .hasMessageContaining("unbalanced parentheses");
    assertThatThrownBy(() -> LabelSelectors.parse("app=a,,b=c"))
        .hasMessageContaining("empty requirement");
    assertThatThrownBy(() -> LabelSelectors.parse("app=web!"))
        .hasMessageContaining("'web!' is not a valid label value");
    assertThatThrownBy(() -> LabelSelectors.parse("bad key=x"))
        .hasMessageContaining("not a valid label key");
    assertThatThrownBy(() -> LabelSelectors.parse("app=a,app=b"))
        .hasMessageContaining("nothing can match");
  }

  @Test
  void orSelectorsSelectWhatAnyOneSelects() {
    List<LabelSelector> or = LabelSelectors.parseAlternatives("app=web or app in (db) or !app");
    assertThat(or).hasSize(3);
    assertThat(LabelSelectors.matchesAny(or, WEB)).isTrue();
    assertThat(LabelSelectors.matchesAny(or, DB)).isTrue();
    assertThat(LabelSelectors.matchesAny(or, NONE)).isTrue();
    assertThat(LabelSelectors.matchesAny(or, Map.of("app", "cache"))).isFalse();
    assertThat(LabelSelectors.matchesAny(List.of(), Map.of("app", "cache"))).isTrue();
    assertThat(LabelSelectors.alternatives(null, or)).isEqualTo(or);
    assertThat(LabelSelectors.alternatives(or.get(0), null)).containsExactly(or.get(0));
    assertThat(LabelSelectors.alternatives(null, List.of())).isEmpty();
  }

  @Test
  void aSpecWithBothSelectorsOrABadExpressionIsNamedInOneLine() {
    LabelSelector eq = LabelSelectors.parse("app=web");
    assertThat(LabelSelectors.problem(eq, List.of(eq)))
        .isEqualTo("spec.labelSelector and spec.orLabelSelectors cannot both be set: use one");
    assertThat(LabelSelectors.problem(eq, null)).isNull();
    assertThat(LabelSelectors.problem(null, List.of(eq, expression("app", "Like", "w*"))))
        .isEqualTo(
            "spec.orLabelSelectors[1].matchExpressions key app: operator Like is not one of In,"
                + " NotIn, Exists, DoesNotExist");
    assertThat(LabelSelectors.problem(expression("app", "In"), null))
        .isEqualTo("spec.labelSelector.matchExpressions key app: In needs at least one value");
    assertThat(LabelSelectors.problem(expression("app", "Exists", "x"), null))
        .isEqualTo("spec.labelSelector.matchExpressions key app: Exists takes no values");
  }

  static LabelSelector expression(String key, String operator, String... values) {
    return new LabelSelectorBuilder()
        .addNewMatchExpression()
        .withKey(key)
        .withOperator(operator)
        .withValues(values)
        .endMatchExpression()
        .build();
  }
}
