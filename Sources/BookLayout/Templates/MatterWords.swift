/// The few words front and back matter print themselves, in the book's language (English for one
/// not listed here).
struct MatterWords {
    var contents: String
    var theEnd: String
    var aboutTheAuthor: String
    var allRightsReserved: String
    var publishedBy: String

    static func forLanguage(_ tag: String) -> MatterWords {
        switch tag.split(separator: "-").first.map({ $0.lowercased() }) ?? "" {
        case "de": MatterWords(contents: "Inhalt", theEnd: "Ende", aboutTheAuthor: "Über die Autorin, den Autor",
                               allRightsReserved: "Alle Rechte vorbehalten.", publishedBy: "Verlag:")
        case "fr": MatterWords(contents: "Table des matières", theEnd: "Fin", aboutTheAuthor: "À propos de l’auteur",
                               allRightsReserved: "Tous droits réservés.", publishedBy: "Éditions")
        case "es": MatterWords(contents: "Índice", theEnd: "Fin", aboutTheAuthor: "Sobre el autor",
                               allRightsReserved: "Todos los derechos reservados.", publishedBy: "Publicado por")
        case "it": MatterWords(contents: "Indice", theEnd: "Fine", aboutTheAuthor: "L’autore",
                               allRightsReserved: "Tutti i diritti riservati.", publishedBy: "Pubblicato da")
        case "ja": MatterWords(contents: "目次", theEnd: "おしまい", aboutTheAuthor: "著者について",
                               allRightsReserved: "無断転載を禁じます。", publishedBy: "発行")
        case "zh": MatterWords(contents: "目录", theEnd: "完", aboutTheAuthor: "关于作者",
                               allRightsReserved: "版权所有。", publishedBy: "出版")
        case "ar": MatterWords(contents: "المحتويات", theEnd: "النهاية", aboutTheAuthor: "عن المؤلف",
                               allRightsReserved: "جميع الحقوق محفوظة.", publishedBy: "الناشر:")
        case "he": MatterWords(contents: "תוכן העניינים", theEnd: "סוף", aboutTheAuthor: "על המחבר",
                               allRightsReserved: "כל הזכויות שמורות.", publishedBy: "הוצאה:")
        default: MatterWords(contents: "Contents", theEnd: "The End", aboutTheAuthor: "About the Author",
                             allRightsReserved: "All rights reserved.", publishedBy: "Published by")
        }
    }
}
